/*
 * What a listing fixes when it is created (docs/design.md §24): its ExternalId
 * and its vehicle (Marca, Modelo, Version, Transmision, Propulsion). An edit (a PUT, a stock
 * sync's row) may name them again — GET → PUT round-trips — but a value the
 * listing does not have is refused, never silently ignored.
 */
import { fold } from '#core/value_sets'
import type VehicleResolver from '#catalog/services/vehicle_resolver'
import type { ListingData } from '#listings/models/listing'
import type { ListingEditInput } from '#listings/validators/listing'
import type { FixedField } from './listing_failures.js'

type Named = 'brand' | 'model' | 'version'

/**
 * The fixed members `input` sends with another value than the listing's as
 * GET shows it (`changed`), and the catalogue names that differ only in their
 * text (`spelled`): another spelling, an id or an href may still name the
 * listing's own entry, which only the catalogue can tell (`sameEntries`).
 */
export function fixedDifferences(
  input: ListingEditInput,
  listing: ListingData
): { changed: FixedField[]; spelled: Named[] } {
  const changed: FixedField[] = []
  const spelled: Named[] = []
  if (
    input.externalId !== undefined &&
    input.externalId.toLowerCase() !== listing.externalId.toLowerCase()
  ) {
    changed.push('externalId')
  }
  const names: [Named, string | undefined, string][] = [
    ['brand', input.brand, listing.brandName],
    ['model', input.model, listing.modelName],
    ['version', input.version, listing.versionName],
  ]
  for (const [field, sent, stored] of names) {
    if (sent !== undefined && fold(sent) !== fold(stored)) spelled.push(field)
  }
  // Null asks for the version's own value, as when creating: nothing to compare.
  if (input.transmission && input.transmission !== listing.transmission) {
    changed.push('transmission')
  }
  if (input.propulsion && input.propulsion !== listing.propulsion) changed.push('propulsion')
  return { changed, spelled }
}

/**
 * Of the `spelled` names, those that name another catalogue entry than the
 * listing's, resolved as a creation resolves them (CreateListing). A version
 * outside the catalogue is compared by its name only.
 */
export async function otherEntries(
  vehicles: Pick<VehicleResolver, 'brand' | 'model' | 'version'>,
  input: ListingEditInput,
  listing: ListingData,
  spelled: Named[]
): Promise<Named[]> {
  const other: Named[] = []
  let brandId: number | null = listing.brandId
  if (spelled.includes('brand')) {
    const brand = await vehicles.brand(input.brand!)
    brandId = brand.ok ? brand.value.id : null
    if (brandId !== listing.brandId) other.push('brand')
  }
  let modelId: number | null = listing.modelId
  if (spelled.includes('model') || (spelled.includes('brand') && input.model !== undefined)) {
    const model = brandId === null ? null : await vehicles.model(input.model!, brandId)
    modelId = model?.ok ? model.value.id : null
    if (spelled.includes('model') && modelId !== listing.modelId) other.push('model')
  }
  if (spelled.includes('version')) {
    let versionId: number | null = null
    if (modelId !== null && listing.versionId !== null) {
      let version = await vehicles.version(input.version!, modelId, input.year ?? listing.year)
      if (!version.ok && version.reason === 'not_found') {
        version = await vehicles.version(input.version!, modelId)
      }
      versionId = version.ok ? version.value.id : null
    }
    if (versionId === null || versionId !== listing.versionId) other.push('version')
  }
  return other
}
