/*
 * What other modules may know about listings (docs/module_services.md):
 * the inquiry intake's snapshot of a listing and the buyers' page view.
 * Read-only; both lookups are index-backed single queries.
 */
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import Listing, { type Exposure, type ListingState } from '#listings/models/listing'
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

function snapshot(listing: Listing): ListingSnapshot {
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

export default class ListingDirectory {
  /**
   * The agency's listing with this ExternalId (any case, any state, any app:
   * the caller checks `appId` and `state`), or null.
   */
  async forInquiry(
    agencyId: number,
    externalId: string,
    client: QueryClientContract = db.connection()
  ) {
    const listing = await Listing.query({ client })
      .where('agency_id', agencyId)
      .whereRaw('lower(external_id) = lower(?)', [externalId])
      .first()
    return listing ? snapshot(listing) : null
  }

  /** The agency's active listings (all apps) per exposure level: what its plan has in use. */
  async usage(agencyId: number, client: QueryClientContract = db.connection()) {
    const rows = await client
      .from('listings')
      .where('agency_id', agencyId)
      .where('state', 'active')
      .groupBy('exposure')
      .select('exposure')
      .count('* as total')
    const usage: Record<Exposure, number> = { high: 0, medium: 0, low: 0 }
    for (const row of rows) usage[row.exposure as Exposure] = Number(row.total)
    return usage
  }

  /** The listing behind `/autos/{slug}` (any state: the page answers 410 when not active), or null. */
  async bySlug(
    slug: string,
    client: QueryClientContract = db.connection()
  ): Promise<PublicListing | null> {
    const listing = await Listing.query({ client })
      .where('slug', slug)
      .select(
        'listings.*',
        db.raw(`(select coalesce(json_agg(json_build_object('image', p.storage_key, 'thumbnail', p.thumbnail_key)
          order by p.position), '[]') from listing_photos p
          where p.listing_id = listings.id and p.state = 'ready') as photos`)
      )
      .first()
    if (!listing) return null
    const photos = listing.$extras.photos as { image: string; thumbnail: string }[]
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
