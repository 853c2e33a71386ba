/*
 * Vine rules of this module's validators.
 */
import vine from '@vinejs/vine'
import { canonical } from '#core/value_sets'

/** One of a closed value set (DESIGN.md §5), matched case- and accent-insensitively; yields the canonical spelling. */
export const oneOf = vine.createRule(
  (value: unknown, values: readonly string[], field) => {
    if (typeof value !== 'string') return
    const found = canonical(values, value)
    if (found === undefined) return field.report('El valor de {{ field }} no es válido.', 'in', field)
    field.mutate(found, field)
  },
  { name: 'oneOf' }
)
