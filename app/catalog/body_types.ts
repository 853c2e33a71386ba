/*
 * Normalised body types ("Carrocerias"), the closed value set the catalogue
 * maps every source's body style to. Ids and codenames are stable: clients
 * may send either.
 */
export const BODY_TYPES = [
  { id: 1, name: 'Sedán', codename: 'sedan' },
  { id: 2, name: 'Hatchback', codename: 'hatchback' },
  { id: 3, name: 'Rural', codename: 'rural' },
  { id: 4, name: 'SUV', codename: 'suv' },
  { id: 5, name: 'Pick-up', codename: 'pick-up' },
  { id: 6, name: 'Coupé', codename: 'coupe' },
  { id: 7, name: 'Convertible', codename: 'convertible' },
  { id: 8, name: 'Monovolumen', codename: 'monovolumen' },
  { id: 9, name: 'Utilitario', codename: 'utilitario' },
  { id: 10, name: 'Furgón', codename: 'furgon' },
  { id: 11, name: 'Minibús', codename: 'minibus' },
  { id: 12, name: 'Chasis', codename: 'chasis' },
] as const

export type BodyType = (typeof BODY_TYPES)[number]
export const BODY_TYPE_NAMES = BODY_TYPES.map((bodyType) => bodyType.name)
