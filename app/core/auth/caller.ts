/*
 * The app a request acts for, as core and every module see it. The apps module
 * owns app credentials: its authenticate middleware (start/kernel.ts) sets
 * `ctx.caller`; nothing outside apps needs the App model for it.
 */
import type { Ability } from './abilities.js'
import type { Caller } from './app_scoped.js'

export type CallingApp = Caller & { abilities: readonly Ability[] }

declare module '@adonisjs/core/http' {
  interface HttpContext {
    caller: CallingApp
  }
}
