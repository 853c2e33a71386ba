/*
 * Wire → domain for listing bodies (docs/spec.md §2.3, §2.4, §8; docs/design.md §6).
 * Field names here are the spec's; what leaves this file is the English input
 * the services understand. A field left out means "keep it"; an explicit null
 * means what the spec says for that field.
 */
import vine from '@vinejs/vine'
import { settings } from '#core/settings'
import { oneOf } from '#core/http/rules'
import { adminMailSchema } from '#core/http/params'
import { EXPOSURES, PROPULSIONS, TRANSMISSIONS } from '#core/value_sets'
import { publicIpHost } from '#core/outbound/callback_url'
import type { FieldContext } from '@vinejs/vine/types'
import type { Exposure, ListingState } from '#listings/models/listing'

/** An e-mail, or the empty string (length 0 is allowed by the spec and means "none"). */
const EMAIL_OR_EMPTY = /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/
const emailOrEmpty = vine.createRule(
  (value, _options, field: FieldContext) => {
    if (typeof value !== 'string' || EMAIL_OR_EMPTY.test(value)) return
    field.report('El campo {{ field }} debe ser una dirección de correo válida.', 'email', field)
  },
  {
    toJSONSchema: (schema) => {
      schema.pattern = EMAIL_OR_EMPTY.source
    },
  }
)

const valor = () =>
  vine
    .object({
      Moneda: vine.string().trim().toUpperCase().in(settings.acceptedCurrencies),
      Importe: vine.number({ strict: true }).min(0).max(999_999_999_999.99).decimal([0, 2]),
    })
    .nullable()
    .optional()

const text = (max: number) => vine.string().trim().maxLength(max).nullable().optional()

/** PublicacionEdit fields (docs/spec.md §2.3), shared by PUT and POST. */
const editFields = {
  RefStock: text(25),
  Activa: vine.boolean({ strict: true }).nullable().optional(),
  Exposicion: vine
    .string()
    .trim()
    .maxLength(5)
    .use(oneOf(['', ...EXPOSURES]))
    .nullable()
    .optional(),
  OperadorResponsable: vine.string().trim().maxLength(50).use(emailOrEmpty()).nullable().optional(),
  VersionYear: vine.number({ strict: true }).withoutDecimals().range([1908, 2050]).optional(),
  Kilometraje: vine.number({ strict: true }).withoutDecimals().range([0, 999_000]).optional(),
  Color: vine
    .string()
    .trim()
    .minLength(1)
    .transform((value) => value.slice(0, 50))
    .optional(),
  Descripcion: text(2000),
  DatosTecnicosCustom: vine
    .array(
      vine.object({
        Nombre: vine.string().trim().minLength(1).maxLength(50),
        Valor: vine.string().trim().maxLength(200),
      })
    )
    .maxLength(50)
    .nullable()
    .optional(),
  Precio: valor(),
  Adelanto: valor(),
  Cuota: valor(),
  Fotos: vine
    .array(
      vine
        .string()
        .trim()
        .maxLength(2000)
        .url({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
        .use(publicIpHost())
    )
    .maxLength(50)
    .nullable()
    .optional(),
  AplicaCertificadoGarantiaUsado: vine.boolean({ strict: true }).nullable().optional(),
  Locacion: vine
    .object({
      Region: text(200),
      Ciudad: text(200),
      Direccion: text(200),
    })
    .nullable()
    .optional(),
  Telefono: text(20),
}

/**
 * A path segment of the listing routes is never an ExternalId (docs/design.md §25):
 * `…/sincronizaciones` would shadow the listing's own links.
 */
const RESERVED_EXTERNAL_IDS = new Set(['sincronizaciones'])
const notReserved = vine.createRule((value, _options, field: FieldContext) => {
  if (typeof value === 'string' && RESERVED_EXTERNAL_IDS.has(value.toLowerCase())) {
    field.report(
      'sincronizaciones es una ruta de la API (en cualquier combinación de mayúsculas) y no puede ser un ExternalId.',
      'reserved',
      field
    )
  }
})

const externalId = () =>
  vine
    .string()
    .minLength(2)
    .maxLength(255)
    .regex(/^[A-Za-z0-9._~-]+$/)
    .use(notReserved())

/**
 * The vehicle and the ExternalId, fixed at creation: a PUT (or a stock sync's
 * row) may name them again — GET → PUT round-trips — but only with the values
 * the listing has (ChangeListing; docs/design.md §24).
 */
const name = (max: number) => vine.string().trim().minLength(1).maxLength(max)
const vehicleFields = {
  Marca: name(200).optional(),
  Modelo: name(200).optional(),
  Version: name(150).optional(),
  Transmision: vine.string().trim().use(oneOf(TRANSMISSIONS)).nullable().optional(),
  Propulsion: vine.string().trim().use(oneOf(PROPULSIONS)).nullable().optional(),
}

export const listingEditValidator = vine.create({
  ...editFields,
  ...vehicleFields,
  ExternalId: externalId().optional(),
})

export const listingCreateValidator = vine.create({
  ...editFields,
  ...vehicleFields,
  ExternalId: externalId(),
  Marca: name(200),
  Modelo: name(200),
  Version: name(150),
  Kilometraje: vine.number({ strict: true }).withoutDecimals().range([0, 999_000]),
})

export const listingPartialValidator = vine.create({
  Precio: valor(),
  Adelanto: valor(),
  Cuota: valor(),
  Activa: vine.boolean({ strict: true }).nullable().optional(),
})

export const listingQueryValidator = vine.create({
  operador: vine.string().trim().maxLength(254).optional(),
  estado: vine
    .string()
    .trim()
    .use(oneOf(['Activa', 'Suspendida', 'Archivada']))
    .optional(),
  pagina: vine.number().withoutDecimals().range([1, 99]).optional(),
})

/** Path parameters: a malformed one is a 400 (docs/spec.md §4.1 lists 400 on every listing call). */
export const listingParamsValidator = vine.create({
  adminmail: adminMailSchema(),
  externalid: externalId().optional(),
})

export type Money = { currency: string; amount: number } | null

/** What an edit asks for; `undefined` = not sent (keep), `null` = sent as null. */
export type ListingEditInput = {
  refStock?: string | null
  active?: boolean | null
  exposure?: Exposure | null
  operatorEmail?: string | null
  year?: number
  mileage?: number
  colour?: string
  description?: string | null
  customSpecs?: { name: string; value: string }[] | null
  price?: Money
  downPayment?: Money
  installment?: Money
  photos?: string[] | null
  warrantyCertificate?: boolean | null
  location?: { region: string | null; city: string | null; address: string | null } | null
  phone?: string | null
  /** Fixed at creation: an edit may only repeat them (docs/design.md §24). */
  externalId?: string
  brand?: string
  model?: string
  version?: string
  transmission?: string | null
  propulsion?: string | null
}

export type ListingCreateInput = ListingEditInput & {
  externalId: string
  brand: string
  model: string
  version: string
  mileage: number
}

type EditBody = Awaited<ReturnType<typeof listingEditValidator.validate>>
type CreateBody = Awaited<ReturnType<typeof listingCreateValidator.validate>>
type PartialBody = Awaited<ReturnType<typeof listingPartialValidator.validate>>

const toMoney = (
  value: { Moneda: string; Importe: number } | null | undefined
): Money | undefined =>
  value === undefined
    ? undefined
    : value === null
      ? null
      : { currency: value.Moneda, amount: value.Importe }

const emptyToNull = <T>(value: T | '' | null | undefined) => (value === '' ? null : value)

const EXPOSURE_OF = {
  Alta: 'high',
  Media: 'medium',
  Baja: 'low',
} as const satisfies Record<(typeof EXPOSURES)[number], Exposure>

const STATE_OF = {
  Activa: 'active',
  Suspendida: 'suspended',
  Archivada: 'archived',
} as const satisfies Record<string, ListingState>

/** The list's `estado` filter as a state (validated by listingQueryValidator). */
export const toStateFilter = (estado: string | undefined): ListingState | undefined =>
  estado ? STATE_OF[estado as keyof typeof STATE_OF] : undefined

const toExposure = (value: string | null | undefined): Exposure | null | undefined => {
  const sent = emptyToNull(value)
  return sent === undefined || sent === null ? sent : EXPOSURE_OF[sent as keyof typeof EXPOSURE_OF]
}

export function toEditInput(body: EditBody): ListingEditInput {
  return {
    refStock: emptyToNull(body.RefStock),
    active: body.Activa,
    exposure: toExposure(body.Exposicion),
    operatorEmail: emptyToNull(body.OperadorResponsable),
    year: body.VersionYear,
    mileage: body.Kilometraje,
    colour: body.Color,
    description: emptyToNull(body.Descripcion),
    customSpecs:
      body.DatosTecnicosCustom === undefined || body.DatosTecnicosCustom === null
        ? body.DatosTecnicosCustom
        : body.DatosTecnicosCustom.map((item) => ({ name: item.Nombre, value: item.Valor })),
    price: toMoney(body.Precio),
    downPayment: toMoney(body.Adelanto),
    installment: toMoney(body.Cuota),
    photos: body.Fotos,
    warrantyCertificate: body.AplicaCertificadoGarantiaUsado,
    location:
      body.Locacion === undefined || body.Locacion === null
        ? body.Locacion
        : {
            region: emptyToNull(body.Locacion.Region) ?? null,
            city: emptyToNull(body.Locacion.Ciudad) ?? null,
            address: emptyToNull(body.Locacion.Direccion) ?? null,
          },
    phone: emptyToNull(body.Telefono),
    externalId: body.ExternalId,
    brand: body.Marca,
    model: body.Modelo,
    version: body.Version,
    transmission: body.Transmision,
    propulsion: body.Propulsion,
  }
}

export function toCreateInput(body: CreateBody): ListingCreateInput {
  return {
    ...toEditInput(body),
    externalId: body.ExternalId,
    brand: body.Marca,
    model: body.Modelo,
    version: body.Version,
    mileage: body.Kilometraje,
  }
}

export function toPartialInput(body: PartialBody): ListingEditInput {
  return {
    price: toMoney(body.Precio),
    downPayment: toMoney(body.Adelanto),
    installment: toMoney(body.Cuota),
    active: body.Activa,
  }
}

/** Wire names of edit fields, for rule errors raised after validation. */
export const WIRE = {
  refStock: 'RefStock',
  active: 'Activa',
  exposure: 'Exposicion',
  operatorEmail: 'OperadorResponsable',
  year: 'VersionYear',
  mileage: 'Kilometraje',
  colour: 'Color',
  customSpecs: 'DatosTecnicosCustom',
  photos: 'Fotos',
  warrantyCertificate: 'AplicaCertificadoGarantiaUsado',
  region: 'Locacion.Region',
  city: 'Locacion.Ciudad',
  phone: 'Telefono',
  brand: 'Marca',
  model: 'Modelo',
  version: 'Version',
  transmission: 'Transmision',
  propulsion: 'Propulsion',
  externalId: 'ExternalId',
} as const
