/*
 * Wire → code for POST /v3/credenciales (docs/design.md §18): `Nombre`
 * 1..100 characters, `AnteriorExpiraEnSegundos` an integer 0..604800 (how
 * long the calling token keeps working; default one day).
 */
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '#apps/services/rotate_token'

export const TOKEN_NAME_MAX = 100

export const rotateCredentialValidator = vine.create({
  Nombre: vine.string().trim().minLength(1).maxLength(TOKEN_NAME_MAX).optional(),
  AnteriorExpiraEnSegundos: vine
    .number({ strict: true })
    .withoutDecimals()
    .range([0, MAX_OVERLAP_SECONDS])
    .optional()
    .meta({
      description: `Segundos que el token usado en la llamada sigue valiendo (0: ya no vale); por omisión ${DEFAULT_OVERLAP_SECONDS}`,
      examples: [DEFAULT_OVERLAP_SECONDS],
    }),
})

export type RotateCredentialInput = Infer<typeof rotateCredentialValidator>

/** `GET /v3/credenciales?pagina=N`: a page 1..99, as the spec's other paged lists. */
export const credentialListValidator = vine.create({
  pagina: vine.number().withoutDecimals().range([1, 99]).optional(),
})
