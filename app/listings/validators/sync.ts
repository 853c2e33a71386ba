/*
 * Wire → domain for the reads of a stock sync (docs/design.md §15).
 */
import vine from '@vinejs/vine'
import { oneOf } from '#core/http/rules'
import { adminMailSchema } from '#core/http/params'
import { OUTCOME_OF } from '#listings/transformers/sync_transformer'

export const syncParamsValidator = vine.create({
  adminmail: adminMailSchema(),
  id: vine.number().withoutDecimals().range([1, Number.MAX_SAFE_INTEGER]).optional(),
})

export const syncResultsQueryValidator = vine.create({
  resultado: vine
    .string()
    .trim()
    .use(oneOf(Object.keys(OUTCOME_OF)))
    .optional(),
  pagina: vine.number().withoutDecimals().range([1, 99]).optional(),
})

export const toOutcome = (resultado: string | undefined) =>
  resultado === undefined ? undefined : OUTCOME_OF[resultado]
