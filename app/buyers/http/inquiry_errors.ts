/*
 * The intake's wire-keyed errors (`Interesado.Email`, `Interesado`, `_`,
 * `ExternalId`, `VersionId`) as the form's field errors.
 */
import type { FormErrors, FormValues } from '#buyers/validators/inquiry_form'

export function inquiryErrors(errors: Record<string, string[]> = {}): FormErrors {
  const result: FormErrors = {}
  for (const [key, messages] of Object.entries(errors)) {
    const field =
      key === 'Interesado'
        ? 'Email'
        : key.startsWith('Interesado.')
          ? key.slice(11)
          : key === 'VersionId'
            ? 'VersionId'
            : '_'
    ;(result[field] ??= []).push(...messages)
  }
  return result
}

/** What the confirmation page says, kept in the session's flash for one request. */
export function sentSummary(
  values: FormValues,
  about: {
    vehicle: string
    recipient: string
    reference: string | null
    back: string
    backLabel?: string
  }
) {
  return {
    name: values.Nombre?.trim() || '',
    contact: values.Email?.trim() || values.Telefono?.trim() || '',
    vehicle: about.vehicle,
    recipient: about.recipient || 'La agencia',
    reference: about.reference,
    backHref: about.back,
    backLabel: about.backLabel ?? 'Volver a la publicación',
  }
}
