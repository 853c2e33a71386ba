/*
 * The data of the registration page (views/registration.edge): the
 * invitation as the invited person sees it and the form's fields with their
 * values and messages.
 */
import { readableTime } from '#core/wire_time'
import type Invitation from '#agencies/models/invitation'
import type { PlaceNames } from '#agencies/services/place_names'

export const GONE = {
  title: 'La invitación ya no está disponible',
  paragraphs: [
    'Este enlace de registro ya fue usado o venció.',
    'Si todavía necesita registrar la agencia, pida a la aplicación que lo invitó una nueva invitación.',
  ],
}

export const UNKNOWN = {
  title: 'Enlace de registro desconocido',
  paragraphs: [
    'Revise que la dirección esté completa, tal como figura en el correo de invitación.',
  ],
}

export function registeredPage(tradeName: string, adminEmail: string) {
  return {
    title: 'Registro completo',
    paragraphs: [
      `La agencia ${tradeName} quedó registrada y usted es su administrador (${adminEmail}).`,
      'La aplicación que lo invitó ya puede operar con la agencia. Puede cerrar esta página.',
    ],
  }
}

export function registrationPage(
  invitation: Invitation,
  names: PlaceNames,
  action: string,
  values: Record<string, unknown>,
  errors: Record<string, string[]>
) {
  const place = [
    invitation.address,
    names.city(invitation.cityId),
    names.region(invitation.regionId),
  ]
    .filter(Boolean)
    .join(', ')
  const value = (name: string, fallback: string | null) =>
    typeof values[name] === 'string' ? (values[name] as string) : (fallback ?? '')
  const fields = [
    {
      name: 'AdminNombre',
      label: 'Nombre',
      type: 'text',
      autocomplete: 'given-name',
      minlength: 1,
      maxlength: 50,
      value: value('AdminNombre', invitation.adminFirstName),
      hint: 'Hasta 50 caracteres.',
    },
    {
      name: 'AdminApellido',
      label: 'Apellido',
      type: 'text',
      autocomplete: 'family-name',
      minlength: 1,
      maxlength: 50,
      value: value('AdminApellido', invitation.adminLastName),
      hint: 'Hasta 50 caracteres.',
    },
    {
      name: 'Password',
      label: 'Contraseña',
      type: 'password',
      autocomplete: 'new-password',
      minlength: 10,
      maxlength: 200,
      value: '',
      hint: 'Al menos 10 caracteres.',
    },
  ].map((field) => {
    const fieldErrors = errors[field.name] ?? []
    const describedBy = `${field.name}-ayuda` + (fieldErrors.length ? ` ${field.name}-error` : '')
    return { ...field, errors: fieldErrors, describedBy }
  })
  return {
    title: `Registro de ${invitation.tradeName}`,
    invitation,
    place,
    expires: readableTime(invitation.expiresAt),
    action,
    fields,
    hasErrors: Object.keys(errors).length > 0,
  }
}
