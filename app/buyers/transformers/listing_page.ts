/*
 * What the listing page shows (Spanish copy, formatted for people), built
 * from the listings' PublicListing and the seller's profile. The page's ETag
 * is computed over this view, so everything displayed is in it.
 */
import type { PublicListing } from '#listings/services/listing_directory'
import { settings } from '#core/settings'
import { formatMoney } from '#core/money_format'
import type { SellerProfile } from '#buyers/services/seller_profile'

export const formatKm = (km: number) => `${new Intl.NumberFormat('es-AR').format(km)} km`

export function initials(name: string) {
  const words = name.split(/\s+/).filter((word) => /\p{L}/u.test(word[0] ?? ''))
  return (
    words
      .slice(0, 2)
      .map((word) => word[0])
      .join('') || '·'
  ).toUpperCase()
}

function truncate(text: string, max: number) {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`
}

export function listingPage(listing: PublicListing, seller: SellerProfile) {
  const heading = `${listing.brand} ${listing.model} ${listing.version}`
  const price = formatMoney(listing.price)
  const mileage = listing.condition === 'Nuevo' ? '0 km' : formatKm(listing.mileage)
  const place = [listing.location.city, listing.location.region]
    .filter((part, index, all): part is string => !!part && all.indexOf(part) === index)
    .join(', ')
  const notes = [
    listing.downPayment && `Anticipo: ${formatMoney(listing.downPayment)}`,
    listing.installment && `Cuotas desde ${formatMoney(listing.installment)}`,
    listing.warrantyCertificate && 'Con certificado de garantía de usado',
  ].filter((note): note is string => !!note)
  const summary = truncate(
    `${heading} ${listing.versionYear}, ${mileage}, ${listing.transmission.toLowerCase()}, ${listing.propulsion.toLowerCase()}` +
      `${place ? `, en ${place}` : ''}. ${price ?? 'Precio a consultar'}. Publicado por ${seller.name}.`,
    200
  )
  const canonical = `${settings.publicUrl}/autos/${encodeURIComponent(listing.slug)}`
  const photos = listing.photos.map((photo, index) => ({
    full: photo.url,
    thumb: photo.thumbnailUrl,
    alt: `${heading} ${listing.versionYear}, foto ${index + 1} de ${listing.photos.length}`,
  }))
  const branch = seller.branch
  return {
    slug: listing.slug,
    heading,
    title: `${heading} ${listing.versionYear}${price ? ` — ${price}` : ''}`,
    subtitle: [String(listing.versionYear), mileage, place].filter(Boolean).join(' · '),
    summary,
    canonical,
    condition: listing.condition === 'Nuevo' ? '0 km' : 'Usado',
    price: { text: price ?? 'Precio a consultar', notes },
    photos,
    facts: [
      { label: 'Año', value: String(listing.versionYear) },
      { label: 'Kilómetros', value: mileage },
      { label: 'Transmisión', value: listing.transmission },
      { label: 'Combustible', value: listing.propulsion },
      ...(listing.color ? [{ label: 'Color', value: listing.color }] : []),
      ...(listing.bodyType ? [{ label: 'Carrocería', value: listing.bodyType }] : []),
      ...(place ? [{ label: 'Ubicación', value: place }] : []),
    ],
    description: listing.description?.trim() || null,
    equipment: listing.specs.map((spec) =>
      spec.value ? `${spec.name}: ${spec.value}` : spec.name
    ),
    location: [listing.location.address, place].filter(Boolean).join(', ') || null,
    phone: listing.phone ?? branch?.phone ?? null,
    agency: {
      name: seller.name,
      initials: initials(seller.name),
      branch: branch
        ? [branch.description, branch.address, branch.place].filter(Boolean).join(' · ')
        : null,
    },
    og: {
      type: 'product',
      title: `${heading} ${listing.versionYear}`,
      description: summary,
      url: canonical,
      image: photos[0]?.full ?? null,
      imageAlt: photos[0]?.alt ?? null,
    },
  }
}

export type ListingPageView = ReturnType<typeof listingPage>
