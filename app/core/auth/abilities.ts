import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'

/** Abilities an app can hold (docs/design.md §3). */
export const ABILITIES = ['consultas:crear'] as const
export type Ability = (typeof ABILITIES)[number]

/** 403 unless the calling app holds `ability`. */
export function requireAbility(ctx: HttpContext, ability: Ability) {
  if (!ctx.caller.abilities.includes(ability)) {
    throw Problem.forbidden(`La aplicación no tiene el permiso ${ability}.`)
  }
}
