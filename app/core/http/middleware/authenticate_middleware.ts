/*
 * Bearer authentication of the calling app. After it, `ctx.caller` is the app
 * every module scopes its queries to.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type App from '#apps/models/app'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    caller: App
  }
}

export default class AuthenticateMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    ctx.caller = await ctx.auth.authenticateUsing(['api'])
    return next()
  }
}
