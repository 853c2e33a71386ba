/*
 * Query and path parameters of the catalogue endpoints (docs/spec.md §4.7). Wire
 * names are the spec's; integers are int32; `q` is capped at Q_MAX.
 */
import vine from '@vinejs/vine'

export const Q_MAX = 100
export const INT32_MAX = 2_147_483_647
/** Bestmatch inputs carry a name, an id or a URL. */
export const MATCH_MAX = 200

const id = () => vine.number().withoutDecimals().min(1).max(INT32_MAX)
const q = () => vine.string().trim().maxLength(Q_MAX).optional()
const flag = () => vine.boolean().optional()
const year = () => vine.number().withoutDecimals().range([1908, 2050])
const matchInput = () => vine.string().trim().minLength(1).maxLength(MATCH_MAX)

export const idValidator = vine.create({ id: id() })

export const brandsQueryValidator = vine.create({ q: q(), soloMercadoNuevos: flag() })

export const modelsQueryValidator = vine.create({ marca: id(), q: q(), soloMercadoNuevos: flag() })

export const versionsQueryValidator = vine.create({ modelo: id(), year: year().optional(), q: q() })

export const brandMatchValidator = vine.create({ make: matchInput() })

export const modelMatchValidator = vine.create({
  make: matchInput(),
  model: matchInput(),
  bodystyle: matchInput().optional(),
})

export const versionMatchValidator = vine.create({
  make: matchInput(),
  model: matchInput(),
  version: vine.string().trim().maxLength(MATCH_MAX).optional(),
  year: year().optional(),
  propulsion: matchInput().optional(),
  transmission: matchInput().optional(),
})

export const citiesQueryValidator = vine.create({ region: matchInput().optional(), q: q() })

export const currencyCodeValidator = vine.create({
  codigo: vine
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/),
})
