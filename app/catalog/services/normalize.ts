/*
 * Maps the words data sources use (English or Spanish, any case or accent)
 * onto the closed value sets of docs/design.md §5 and the catalogue's body types.
 */
import { PROPULSIONS, TRANSMISSIONS, canonical, fold } from '#core/value_sets'
import { BODY_TYPES } from '#catalog/body_types'

const PROPULSION_WORDS: Record<string, (typeof PROPULSIONS)[number]> = {
  'gasoline': 'Nafta',
  'petrol': 'Nafta',
  'gas': 'Nafta',
  'benzina': 'Nafta',
  'gasolina': 'Nafta',
  'diesel': 'Diésel',
  'gasoil': 'Diésel',
  'cng': 'GNC',
  'compressed natural gas (cng)': 'GNC',
  'electric': 'Eléctrico',
  'electric (bev)': 'Eléctrico',
  'electrico': 'Eléctrico',
  'hybrid': 'Híbrido',
  'hybrid electric (hev)': 'Híbrido',
  'plug-in hybrid': 'Híbrido enchufable',
  'plug-in hybrid electric (phev)': 'Híbrido enchufable',
  'phev': 'Híbrido enchufable',
}

const TRANSMISSION_WORDS: Record<string, (typeof TRANSMISSIONS)[number]> = {
  'manual': 'Manual',
  'mt': 'Manual',
  'automatic': 'Automática',
  'automatica': 'Automática',
  'at': 'Automática',
  'automated': 'Automatizada',
  'automated manual': 'Automatizada',
  'amt': 'Automatizada',
  'dct': 'Automatizada',
  'dual-clutch': 'Automatizada',
  'cvt': 'CVT',
  'continuously variable': 'CVT',
  'continuously variable transmission (cvt)': 'CVT',
}

const BODY_TYPE_WORDS: Record<string, string> = {
  'sedan': 'Sedán',
  'saloon': 'Sedán',
  'hatchback': 'Hatchback',
  'hatch': 'Hatchback',
  'liftback': 'Hatchback',
  'wagon': 'Rural',
  'station wagon': 'Rural',
  'familiar': 'Rural',
  'suv': 'SUV',
  'crossover': 'SUV',
  'sport utility vehicle (suv)/multi-purpose vehicle (mpv)': 'SUV',
  'pickup': 'Pick-up',
  'pick-up': 'Pick-up',
  'pick up': 'Pick-up',
  'truck': 'Pick-up',
  'coupe': 'Coupé',
  'convertible': 'Convertible',
  'cabriolet': 'Convertible',
  'roadster': 'Convertible',
  'minivan': 'Monovolumen',
  'mpv': 'Monovolumen',
  'monovolumen': 'Monovolumen',
  'van': 'Utilitario',
  'utilitario': 'Utilitario',
  'cargo van': 'Furgón',
  'furgon': 'Furgón',
  'bus': 'Minibús',
  'minibus': 'Minibús',
  'chassis': 'Chasis',
  'cab chassis': 'Chasis',
}

function lookup<T extends string>(
  values: readonly T[],
  words: Record<string, T>,
  input: unknown
): T | null {
  if (typeof input !== 'string' || input.trim() === '') return null
  return canonical(values, input) ?? words[fold(input)] ?? null
}

export const propulsionOf = (input: unknown) => lookup(PROPULSIONS, PROPULSION_WORDS, input)
export const transmissionOf = (input: unknown) => lookup(TRANSMISSIONS, TRANSMISSION_WORDS, input)
export const bodyTypeOf = (input: unknown) =>
  lookup(
    BODY_TYPES.map((bodyType) => bodyType.name),
    BODY_TYPE_WORDS,
    input
  )

/** Lower-case ASCII slug: the codename of catalogue entries. */
export function slug(value: string): string {
  return fold(value)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
