/*
 * The market segment ("Segmento", docs/spec.md §2.13) of a version the data does not classify:
 * derived from its body type and a size class. Passenger bodies take the European size letter
 * Argentine dealers use (A–E) from the displacement, or from the power when there is none
 * (electric); pick-ups are chica/mediana/grande; vans, minibuses and chassis are "Utilitario".
 * A segment given by the imported data is kept as it is.
 */

/** Upper bounds (inclusive) of each size letter: displacement in cm³, power in CV. */
const BY_DISPLACEMENT: [number, string][] = [
  [1100, 'A'],
  [1600, 'B'],
  [2000, 'C'],
  [3000, 'D'],
]
const BY_POWER: [number, string][] = [
  [80, 'A'],
  [120, 'B'],
  [180, 'C'],
  [300, 'D'],
]
const PICKUP_SIZES: [number, string][] = [
  [1600, 'Pick-up chica'],
  [3000, 'Pick-up mediana'],
]

const COMMERCIAL = new Set(['Utilitario', 'Furgón', 'Minibús', 'Chasis'])

/** When neither displacement nor power is known (and the model gives no hint either). */
export const UNCLASSIFIED = 'Sin clasificar'

function bracket(value: number | null, bounds: [number, string][], above: string) {
  if (value === null || value <= 0) return null
  return bounds.find(([bound]) => value <= bound)?.[1] ?? above
}

/** The size letter of a passenger vehicle, or null when neither figure is known. */
export function sizeLetter(displacement: number | null, power: number | null) {
  return bracket(displacement, BY_DISPLACEMENT, 'E') ?? bracket(power, BY_POWER, 'E')
}

/**
 * The segment of a version with body type `bodyType` (a Carroceria name, or null) and the given
 * figures; `fallback` (the segment most versions of the same model have) stands in for a size
 * class that cannot be worked out.
 */
export function deriveSegment(
  bodyType: string | null,
  displacement: number | null,
  power: number | null,
  fallback: string | null = null
): string {
  if (bodyType && COMMERCIAL.has(bodyType)) return 'Utilitario'
  if (bodyType === 'Pick-up') {
    return bracket(displacement, PICKUP_SIZES, 'Pick-up grande') ?? fallback ?? 'Pick-up'
  }
  return sizeLetter(displacement, power) ?? fallback ?? UNCLASSIFIED
}

type Classified = {
  bodyType: string | null
  displacement: number | null
  power: number | null
  segment: string | null
}

/**
 * The segments of one model's versions: each imported one kept, the others derived. A version
 * without size figures takes the segment most of its model's sized versions have.
 */
export function segmentsOf(versions: Classified[]): string[] {
  const derived = versions.map(
    (version) =>
      version.segment ?? deriveSegment(version.bodyType, version.displacement, version.power)
  )
  const counts = new Map<string, number>()
  versions.forEach((version, index) => {
    const sized = version.segment !== null || sizeKnown(version)
    if (sized) counts.set(derived[index], (counts.get(derived[index]) ?? 0) + 1)
  })
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
  return versions.map((version, index) =>
    version.segment !== null || sizeKnown(version) || common === null
      ? derived[index]
      : deriveSegment(version.bodyType, null, null, common)
  )
}

function sizeKnown(version: Classified) {
  if (version.bodyType && COMMERCIAL.has(version.bodyType)) return true
  if (version.bodyType === 'Pick-up')
    return bracket(version.displacement, PICKUP_SIZES, '') !== null
  return sizeLetter(version.displacement, version.power) !== null
}
