/*
 * The buyers' inquiry forms post the wire names of Interesado (Nombre,
 * Apellido, Email, Telefono, Comentario, Interes). They are turned into the
 * API's intake body and checked by the API's own validator, so a form and an
 * API client meet exactly the same rules; errors come back per form field.
 * An empty field means "not given", as a browser cannot send null.
 */
import { randomUUID } from 'node:crypto'
import { errors as vineErrors } from '@vinejs/vine'
import { INTERESTS } from '#core/value_sets'
import { intakeValidator, LIMITS, type IntakeInput } from '#leads/validators/inquiry_validators'

export const FORM_FIELDS = [
  'Nombre',
  'Apellido',
  'Email',
  'Telefono',
  'Comentario',
  'Interes',
] as const
export type FormField = (typeof FORM_FIELDS)[number]
export type FormValues = Partial<Record<FormField, string>>
export type FormErrors = Record<string, string[]>

/** The honeypot: hidden from people, filled in by form-spamming robots. */
export const HONEYPOT = 'Sitio'

export const LABELS: Record<FormField, string> = {
  Nombre: 'Nombre',
  Apellido: 'Apellido',
  Email: 'Correo electrónico',
  Telefono: 'Teléfono',
  Comentario: 'Mensaje para la agencia',
  Interes: '¿Qué te interesa?',
}

export const INTEREST_LABELS: Record<(typeof INTERESTS)[number], string> = {
  Compra: 'Comprar este vehículo',
  Financiacion: 'Comprarlo con financiación',
  Permuta: 'Entregar mi auto como parte de pago',
  PruebaDeManejo: 'Hacer una prueba de manejo',
}

export const FIELD_LIMITS: Record<FormField, { max: number; required?: boolean }> = {
  Nombre: { max: LIMITS.name, required: true },
  Apellido: { max: LIMITS.name },
  Email: { max: LIMITS.email },
  Telefono: { max: LIMITS.phone },
  Comentario: { max: LIMITS.comment },
  Interes: { max: 20 },
}

/** The form's own fields as sent (strings only, anything else dropped). */
export function formValues(body: Record<string, unknown>): FormValues {
  const values: FormValues = {}
  for (const field of FORM_FIELDS) {
    const value = body[field]
    if (typeof value === 'string') values[field] = value
  }
  return values
}

export function isSpam(body: Record<string, unknown>): boolean {
  const trap = body[HONEYPOT]
  return trap !== undefined && trap !== ''
}

type Target = { ExternalId?: string; VersionId?: number }

/**
 * Validates the form as the API would validate the same inquiry. The form
 * adds one rule of its own: a person writing to an agency gives a first name
 * and a way to be answered (e-mail or phone).
 */
export async function validateInquiryForm(
  values: FormValues,
  target: Target
): Promise<{ ok: true; input: IntakeInput } | { ok: false; errors: FormErrors }> {
  const interesado: Record<string, string> = {}
  for (const field of FORM_FIELDS) {
    const value = values[field]
    if (value !== undefined && value.trim() !== '') interesado[field] = value
  }
  const errors: FormErrors = {}
  let input: IntakeInput | undefined
  try {
    input = await intakeValidator.validate({
      ...target,
      OrigenLead: 'Portal',
      Interesado: interesado,
    })
  } catch (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    for (const { field, message } of error.messages as { field: string; message: string }[]) {
      const key = field.replace(/^Interesado\./, '')
      ;(errors[key] ??= []).push(
        message.replace(`Interesado.${key}`, LABELS[key as FormField] ?? key)
      )
    }
  }
  if (!interesado.Nombre) (errors.Nombre ??= []).push('Ingresá tu nombre.')
  if (!interesado.Email && !interesado.Telefono) {
    ;(errors.Email ??= []).push(
      'Ingresá un correo electrónico o un teléfono para que la agencia pueda responderte.'
    )
  }
  if (Object.keys(errors).length > 0 || !input) return { ok: false, errors }
  return { ok: true, input }
}

/** Errors in the order of the form, for the summary at its top. */
export function errorList(errors: FormErrors) {
  const order = [
    'Nombre',
    'Apellido',
    'Email',
    'Telefono',
    'Region',
    'VersionId',
    'Interes',
    'Comentario',
  ]
  return Object.keys(errors)
    .filter((field) => field !== '_')
    .sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99))
    .map((field) => ({ field, message: errors[field][0] }))
}

type Option = { value: string | number; label: string }
export type ExtraSelect = {
  name: string
  label: string
  hint?: string
  options: Option[]
  required?: boolean
}

type InputView = {
  name: string
  label: string
  hint?: string
  kind: 'input' | 'select' | 'textarea'
  attrs: Record<string, string | number | boolean | undefined>
  options?: Array<Option & { selected: boolean }>
  value?: string
  error?: string
}

const HINTS: Partial<Record<FormField, string>> = {
  Telefono: 'Con código de área, por ejemplo 11 4567-8901',
  Comentario: `Opcional, hasta ${LIMITS.comment} caracteres`,
}

const INPUTS: Record<
  Exclude<FormField, 'Interes' | 'Comentario'>,
  { type: string; autocomplete: string; inputmode?: string }
> = {
  Nombre: { type: 'text', autocomplete: 'given-name' },
  Apellido: { type: 'text', autocomplete: 'family-name' },
  Email: { type: 'email', autocomplete: 'email', inputmode: 'email' },
  Telefono: { type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
}

/** What the form partial renders: groups of fields with their attributes, values and errors. */
export function formView(options: {
  action: string
  recipient: string
  submitLabel: string
  values?: Record<string, string | undefined>
  errors?: FormErrors
  defaultComment?: string
  selects?: ExtraSelect[]
  formError?: string
}) {
  const errors = options.errors ?? {}
  const values: Record<string, string | undefined> = { Interes: 'Compra', ...options.values }
  const common = (name: string, required = false) => ({
    'id': `campo-${name}`,
    'name': name,
    'required': required,
    'aria-required': required ? 'true' : undefined,
    'aria-invalid': errors[name] ? 'true' : undefined,
    'aria-describedby': errors[name] ? `error-${name}` : undefined,
  })
  const input = (name: keyof typeof INPUTS): InputView => ({
    name,
    label: LABELS[name],
    hint: HINTS[name],
    kind: 'input',
    attrs: {
      ...common(name, FIELD_LIMITS[name].required),
      type: INPUTS[name].type,
      value: values[name] ?? '',
      maxlength: FIELD_LIMITS[name].max,
      autocomplete: INPUTS[name].autocomplete,
      inputmode: INPUTS[name].inputmode,
    },
    error: errors[name]?.[0],
  })
  const select = (
    name: string,
    label: string,
    choices: Option[],
    hint?: string,
    required = false
  ): InputView => ({
    name,
    label,
    hint,
    kind: 'select',
    attrs: common(name, required),
    options: choices.map((choice) => ({
      ...choice,
      selected: String(values[name] ?? '') === String(choice.value),
    })),
    error: errors[name]?.[0],
  })
  const interests = INTERESTS.map((value) => ({ value, label: INTEREST_LABELS[value] }))
  const comment: InputView = {
    name: 'Comentario',
    label: LABELS.Comentario,
    hint: HINTS.Comentario,
    kind: 'textarea',
    attrs: { ...common('Comentario'), rows: 5, maxlength: FIELD_LIMITS.Comentario.max },
    value: values.Comentario ?? options.defaultComment ?? '',
    error: errors.Comentario?.[0],
  }
  const extra = (options.selects ?? []).map((entry) =>
    select(entry.name, entry.label, entry.options, entry.hint, entry.required)
  )
  return {
    action: options.action,
    // Drawn at each render: a repeated submission of this form makes one inquiry.
    formKey: randomUUID(),
    recipient: options.recipient,
    submitLabel: options.submitLabel,
    errorList: errorList(errors),
    formError: options.formError ?? errors._?.[0],
    groups: [
      [input('Nombre'), input('Apellido')],
      [input('Email')],
      [input('Telefono')],
      ...extra.map((entry) => [entry]),
      [select('Interes', LABELS.Interes, interests)],
      [comment],
    ],
  }
}

/** The catalogue form's own choices: a region and a version of the model, both from the offered lists. */
export function catalogChoices(
  values: { Region?: string; VersionId?: string },
  regions: Option[],
  versions: Option[]
): { regionId?: number; versionId?: number; errors: FormErrors } {
  const errors: FormErrors = {}
  const pick = (value: string | undefined, options: Option[]) =>
    options.find(
      (option) => value !== undefined && value !== '' && String(option.value) === value.trim()
    )
  const region = pick(values.Region, regions)
  const version = pick(values.VersionId, versions)
  if (!region) errors.Region = ['Elegí tu provincia.']
  if (!version) errors.VersionId = ['Elegí una versión del modelo.']
  return {
    regionId: region ? Number(region.value) : undefined,
    versionId: version ? Number(version.value) : undefined,
    errors,
  }
}
