/*
 * Wire → code for agencies, invitations and registration (docs/spec.md §2.6, §2.7, §8;
 * docs/design.md §6). Optional texts accept null and ''; `''` means "not given".
 */
import { emailAddress } from '#core/http/rules'
import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { messages } from '#core/http/validation_messages'
import type { Infer } from '@vinejs/vine/types'
import { isWhatsapp } from '#agencies/services/phones'
import type { PlanView } from '#agencies/stores/plan_store'

export const PHONE_FORMAT = /^\+?[0-9][0-9 ().-]*$/

export const email = (min: number, max: number) =>
  vine.string().trim().minLength(min).maxLength(max).use(emailAddress())
export const optionalText = (max: number) =>
  vine.string().trim().maxLength(max).nullable().optional()
export const phone = () => vine.string().trim().minLength(8).maxLength(20).regex(PHONE_FORMAT)

export const agencyCreateValidator = vine.create({
  AdminMail: email(8, 50),
  NombreComercial: vine.string().trim().minLength(3).maxLength(100),
  Region: optionalText(200),
  Ciudad: optionalText(200),
  Direccion: optionalText(200),
  Telefono: phone().nullable().optional(),
  AdminNombre: optionalText(50),
  AdminApellido: optionalText(50),
})
export type AgencyCreate = Infer<typeof agencyCreateValidator>

/** AgenciaCreate → the invitation's fields; `''` means not given. */
export function toInvitationInput(
  input: AgencyCreate,
  place: { regionId: number | null; cityId: number | null }
) {
  return {
    adminEmail: input.AdminMail,
    tradeName: input.NombreComercial,
    ...place,
    address: input.Direccion || null,
    phone: input.Telefono || null,
    phoneIsWhatsapp: input.Telefono ? isWhatsapp(input.Telefono) : false,
    adminFirstName: input.AdminNombre || null,
    adminLastName: input.AdminApellido || null,
  }
}

export const agencyEditValidator = vine.create({
  NombreComercial: vine.string().trim().minLength(3).maxLength(100),
})

export const registrationValidator = vine.create({
  AdminNombre: vine.string().trim().minLength(1).maxLength(50),
  AdminApellido: vine.string().trim().minLength(1).maxLength(50),
  Password: vine.string().minLength(10).maxLength(200),
})
export type RegistrationForm = Infer<typeof registrationValidator>

/** The page speaks to a person: messages name the fields by their labels. */
export const registrationMessages = new SimpleMessagesProvider(messages, {
  AdminNombre: 'Nombre',
  AdminApellido: 'Apellido',
  Password: 'Contraseña',
})

/** `agency:plan`'s flags (named after the wire's exposure levels) → the plan. */
export function toPlan(flags: Infer<typeof planValidator>): PlanView {
  return {
    capacity: flags.capacity,
    quotas: { high: flags.alta, medium: flags.media, low: flags.baja },
  }
}

export const planValidator = vine.create({
  capacity: vine.number().withoutDecimals().min(0).max(1_000_000),
  alta: vine.number().withoutDecimals().min(0).max(1_000_000),
  media: vine.number().withoutDecimals().min(0).max(1_000_000),
  baja: vine.number().withoutDecimals().min(0).max(1_000_000),
})
