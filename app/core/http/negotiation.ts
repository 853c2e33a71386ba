/*
 * Accept negotiation of the two representations (docs/design.md §4). Full types
 * come first so that `*\/*`, `application/*` and an absent Accept pick JSON.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from './problem.js'

export type Representation = 'full' | 'ref'

export const FULL_TYPES = ['application/json', 'application/vnd.service.entry+json', 'text/json']
export const REF_TYPE = 'application/vnd.service.ref+json'
const OFFERED = [...FULL_TYPES, REF_TYPE]

/** Picks the representation, sets `Content-Type` and `Vary`; 406 when nothing fits. */
export function negotiate(ctx: HttpContext): Representation {
  ctx.response.header('Vary', 'Accept')
  const accept = ctx.request.header('accept')
  const chosen = accept ? ctx.request.accepts(OFFERED) : FULL_TYPES[0]
  if (!chosen) {
    throw new Problem(406, {
      detail: `Tipos disponibles: ${OFFERED.join(', ')}.`,
      extensions: { Disponibles: OFFERED },
    })
  }
  ctx.response.header('Content-Type', `${chosen}; charset=utf-8`)
  return chosen === REF_TYPE ? 'ref' : 'full'
}
