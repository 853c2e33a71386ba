/*
 * Wire → code for operators (docs/spec.md §2.8, §2.9, §4.3, §8; docs/design.md §6).
 */
import { emailAddress } from '#core/http/rules'
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { WHATSAPP_FORMAT } from '#agencies/services/phones'
import type { OperatorEdit } from '#agencies/services/edit_operator'
import type { NewCollaborator } from '#agencies/services/add_collaborator'
import { email, optionalText, phone } from './agency_validators.js'

export const operatorEditValidator = vine.create({
  Nombre: optionalText(50),
  Apellido: optionalText(50),
  TelefonoLaboral: phone().nullable().optional(),
  WhatsApp: vine
    .string()
    .trim()
    .minLength(8)
    .maxLength(20)
    .regex(WHATSAPP_FORMAT)
    .nullable()
    .optional()
    .meta({ description: '`+{país}{área}{número}`', examples: ['+5491155550000'] }),
  Region: optionalText(200),
  Ciudad: optionalText(200),
  Direccion: optionalText(200),
})
export type OperatorEditBody = Infer<typeof operatorEditValidator>

/** OperadorEdit → what EditOperator changes (absent stays absent). */
export function toOperatorEdit(body: OperatorEditBody): OperatorEdit {
  return {
    firstName: body.Nombre,
    lastName: body.Apellido,
    workPhone: body.TelefonoLaboral,
    whatsapp: body.WhatsApp,
    address: body.Direccion,
    region: body.Region,
    city: body.Ciudad,
  }
}

export const collaboratorCreateValidator = vine.create({
  Email: email(6, 50),
  Nombre: optionalText(50),
  Apellido: optionalText(50),
  Telefonos: vine.array(phone()).maxLength(5).optional(),
})
export type CollaboratorCreate = Infer<typeof collaboratorCreateValidator>

/** OperadorCreate → AddCollaborator's input. */
export function toNewCollaborator(body: CollaboratorCreate): NewCollaborator {
  return {
    email: body.Email,
    firstName: body.Nombre,
    lastName: body.Apellido,
    phones: body.Telefonos,
  }
}

/** An operator named in the query string by e-mail. */
const operatorEmail = () => vine.string().trim().maxLength(254).use(emailAddress())

/** `?operador=` where it filters (optional) and where it selects (required). */
export const operatorFilterValidator = vine.create({ operador: operatorEmail().optional() })
export const operatorQueryValidator = vine.create({ operador: operatorEmail() })
export const operatorTargetValidator = operatorFilterValidator

export const detachValidator = vine.create({
  operador: operatorEmail(),
  operadorDestino: operatorEmail(),
})
