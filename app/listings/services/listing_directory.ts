/*
 * What other modules may know about listings (docs/module_services.md):
 * the inquiry intake's snapshot of a listing and the buyers' page view.
 * Read-only; both lookups are index-backed single queries.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import type { Exposure, ListingData, ListingState } from '#listings/models/listing'
import ListingStore from '#listings/stores/listing_store'
import { photoUrl } from './photo_storage.js'

export type Valor = { currency: string; amount: number } | null

export type ListingSnapshot = {
  id: number
  appId: number
  agencyId: number
  externalId: string
  refStock: string | null
  /** active | suspended | archived */
  state: ListingState
  brand: string
  model: string
  version: string
  versionYear: number
  mileage: number
  color: string | null
  bodyType: string | null
  /** 'Nuevo' (0 km) or 'Usado' (docs/design.md §5 Auto.Estado). */
  condition: 'Nuevo' | 'Usado'
  price: Valor
  downPayment: Valor
  installment: Valor
  operatorId: number
  slug: string
}

/** What the buyers' page shows: the snapshot plus the ad's content. */
export type PublicListing = ListingSnapshot & {
  title: string
  transmission: string
  propulsion: string
  description: string | null
  exposure: Exposure
  specs: { name: string; value: string }[]
  photos: { url: string; thumbnailUrl: string }[]
  location: { region: string | null; city: string | null; address: string | null }
  phone: string | null
  operatorEmail: string
  warrantyCertificate: boolean
}

const valor = (currency: string | null, amount: number | null): Valor =>
  currency === null || amount === null ? null : { currency, amount }

function snapshot(listing: ListingData): ListingSnapshot {
  return {
    id: listing.id,
    appId: listing.appId,
    agencyId: listing.agencyId,
    externalId: listing.externalId,
    refStock: listing.refStock,
    state: listing.state,
    brand: listing.brandName,
    model: listing.modelName,
    version: listing.versionName,
    versionYear: listing.year,
    mileage: listing.mileage,
    color: listing.colour,
    bodyType: listing.bodyType,
    condition: listing.mileage === 0 ? 'Nuevo' : 'Usado',
    price: valor(listing.priceCurrency, listing.priceAmount),
    downPayment: valor(listing.downPaymentCurrency, listing.downPaymentAmount),
    installment: valor(listing.installmentCurrency, listing.installmentAmount),
    operatorId: listing.operatorId,
    slug: listing.slug,
  }
}

@inject()
export default class ListingDirectory {
  constructor(private listings: ListingStore) {}

  /**
   * The agency's listing with this ExternalId (any case, any state, any app:
   * the caller checks `appId` and `state`), or null.
   */
  async forInquiry(agencyId: number, externalId: string, tx?: Tx) {
    const listing = await this.listings.findInAgency(agencyId, externalId, tx)
    return listing ? snapshot(listing) : null
  }

  /** The agency's active listings (all apps) per exposure level: what its plan has in use. */
  usage(agencyId: number, tx?: Tx) {
    return this.listings.activeByExposure(agencyId, {}, tx)
  }

  /** The listing behind `/autos/{slug}` (any state: the page answers 410 when not active), or null. */
  async bySlug(slug: string, tx?: Tx): Promise<PublicListing | null> {
    const found = await this.listings.findBySlug(slug, tx)
    if (!found) return null
    const { listing, photos } = found
    return {
      ...snapshot(listing),
      title: `${listing.brandName} ${listing.modelName} ${listing.versionName} ${listing.year}`,
      transmission: listing.transmission,
      propulsion: listing.propulsion,
      description: listing.description,
      exposure: listing.exposure,
      specs: listing.customSpecs,
      photos: photos.map((photo) => ({
        url: photoUrl(photo.image),
        thumbnailUrl: photoUrl(photo.thumbnail),
      })),
      location: { region: listing.regionName, city: listing.cityName, address: listing.address },
      phone: listing.phone,
      operatorEmail: listing.operatorEmail,
      warrantyCertificate: listing.warrantyCertificate && listing.mileage > 0,
    }
  }
}
