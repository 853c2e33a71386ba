/*
 * Vine rules shared by every module's validators.
 */
import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { canonical } from '#core/value_sets'

/**
 * One of a closed value set (DESIGN.md §5), matched case- and
 * accent-insensitively; the field becomes the canonical spelling.
 */
export const oneOf = vine.createRule((value: unknown, values: readonly string[], field: FieldContext) => {
  if (typeof value !== 'string') return
  const match = canonical(values, value)
  if (match === undefined) {
    field.report(`El valor de {{ field }} no es válido; valores admitidos: ${values.join(', ')}.`, 'in', field)
    return
  }
  field.mutate(match, field)
}, { name: 'oneOf' })
