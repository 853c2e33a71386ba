/*
 * The signing secret of an outbound channel as the wire carries it: 16..256
 * characters, write-only. null or absent keeps the stored one (responses carry
 * null, so a read-modify-write round trip cannot erase it); '' removes it.
 */
import vine from '@vinejs/vine'

export const SECRET_MIN = 16
export const SECRET_MAX = 256

/** At least SECRET_MIN characters unless '' (the removal). */
export const secretLength = vine.createRule(
  (value: unknown, _options: undefined, field) => {
    if (typeof value !== 'string' || value === '') return
    if (value.length < SECRET_MIN) {
      field.report(
        `El campo {{ field }} debe tener al menos ${SECRET_MIN} caracteres.`,
        'secretLength',
        field
      )
    }
  },
  {
    name: 'secretLength',
    toJSONSchema: (schema) => {
      schema.pattern = `^(|[\\s\\S]{${SECRET_MIN},})$`
      schema.description =
        'Clave de firma (`whsec_…` en base64 o texto libre). Solo escritura: null o ausente la conserva, "" la elimina.'
    },
  }
)
