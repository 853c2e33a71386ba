/*
 * Wire → code for branches (docs/spec.md §2.10; create and edit are extensions so the
 * `edit` link resolves). Hours accept HH:MM or HH:MM:SS.
 */
import { emailAddress } from '#core/http/rules'
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import type { BranchInput, Hours } from '#agencies/services/save_branch'
import { optionalText, phone } from './agency_validators.js'

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/

const hours = () =>
  vine
    .object({ Desde: vine.string().trim().regex(TIME), Hasta: vine.string().trim().regex(TIME) })
    .nullable()
    .optional()

const fields = {
  Email: vine.string().trim().maxLength(254).use(emailAddress()).nullable().optional(),
  Telefono: phone().nullable().optional(),
  Region: optionalText(200),
  Ciudad: optionalText(200),
  Direccion: optionalText(200),
  Comercial: vine.boolean({ strict: true }).optional(),
  TallerMecanico: vine.boolean({ strict: true }).optional(),
  Autopartes: vine.boolean({ strict: true }).optional(),
  Laborable: hours(),
  PreFestivo: hours(),
  Festivo: hours(),
  ResponsableLeadsPostVenta: vine
    .string()
    .trim()
    .maxLength(254)
    .use(emailAddress())
    .nullable()
    .optional(),
}

export const branchCreateValidator = vine.create({
  Descripcion: vine.string().trim().minLength(1).maxLength(100),
  ...fields,
})

export const branchEditValidator = vine.create({
  Descripcion: vine.string().trim().minLength(1).maxLength(100).optional(),
  ...fields,
})
export type BranchBody = Infer<typeof branchEditValidator>

type HoursBody = { Desde: string; Hasta: string } | null | undefined
const toHours = (body: HoursBody): Hours | undefined => body && { from: body.Desde, to: body.Hasta }

/** SucursalEdit (or create) → what SaveBranch sets (absent stays absent, null clears). */
export function toBranchInput(body: BranchBody): BranchInput {
  return {
    description: body.Descripcion,
    email: body.Email,
    phone: body.Telefono,
    region: body.Region,
    city: body.Ciudad,
    address: body.Direccion,
    sales: body.Comercial,
    workshop: body.TallerMecanico,
    parts: body.Autopartes,
    hours: {
      weekdays: toHours(body.Laborable),
      preHolidays: toHours(body.PreFestivo),
      holidays: toHours(body.Festivo),
    },
    afterSalesLeadOwner: body.ResponsableLeadsPostVenta,
  }
}
