/*
 * Closed value sets of docs/design.md §5. Inputs match case- and accent-insensitively;
 * responses always use the canonical spelling listed here.
 */
export const LISTING_STATES = ['Activa', 'Suspendida', 'Archivada'] as const
export const EXPOSURES = ['Alta', 'Media', 'Baja'] as const
export const TRANSMISSIONS = ['Manual', 'Automática', 'Automatizada', 'CVT'] as const
export const PROPULSIONS = [
  'Nafta',
  'Diésel',
  'GNC',
  'Híbrido',
  'Híbrido enchufable',
  'Eléctrico',
] as const
export const LEAD_ORIGINS = ['Portal', 'App', 'WhatsApp', 'Teléfono', 'Partner'] as const
export const AD_KINDS = ['Publicacion', 'Catalogo'] as const
export const VEHICLE_CONDITIONS = ['Nuevo', 'Usado'] as const
export const INTERESTS = ['Compra', 'Financiacion', 'Permuta', 'PruebaDeManejo'] as const

/** Lower case without diacritics: the comparison key of every closed value. */
export function fold(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim()
}

/** The canonical spelling of `input` in `values`, or undefined. */
export function canonical<T extends string>(values: readonly T[], input: string): T | undefined {
  const key = fold(input)
  return values.find((value) => fold(value) === key)
}
