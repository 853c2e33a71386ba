/*
 * The buyers' inquiry forms get the protection of `Idempotency-Key`
 * (docs/design.md §14) from a hidden key drawn at each render (`ClaveEnvio`):
 * a double click or a browser's retry of one rendered form makes one inquiry.
 * A repeat waits for the first to finish and gets its answer — the redirect to
 * the confirmation, with the confirmation flashed into the repeat's own
 * session. The same key with other fields (the buyer came back and edited the
 * page) is a new inquiry; a form without the key (a page rendered before the
 * key existed) is not protected. The kept answer carries the marks of the
 * e-mail and phone typed (form_marks.ts), so a suppression finds it.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from '@adonisjs/core'
import Idempotency, {
  fingerprint,
  IN_FLIGHT_SECONDS,
  validKey,
  type Scope,
} from '#core/http/idempotency'
import { keepOnEnd, replay } from '#core/http/middleware/idempotency_middleware'
import { Problem } from '#core/http/problem'
import { FORM_MARKS, formMarks } from '#buyers/services/privacy/form_marks'

export const FORM_KEY_FIELD = 'ClaveEnvio'
/** The scope's "app" for the public site's forms (no calling app there). */
const SITE = 0
const POLL_MS = 200

@inject()
export default class FormIdempotencyMiddleware {
  constructor(private idempotency: Idempotency) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const body = ctx.request.body()
    const key = body[FORM_KEY_FIELD]
    if (typeof key !== 'string' || !validKey(key) || ctx.request.url().length > 2048) return next()
    const scope: Scope = { appId: SITE, method: 'POST', path: ctx.request.url(), key }
    const hash = fingerprint(ctx.request.raw())
    const deadline = Date.now() + IN_FLIGHT_SECONDS * 1000
    for (;;) {
      const claimed = await this.idempotency.claim(scope, hash)
      if (claimed.kind === 'owner') {
        const marks = formMarks({ email: body.Email, phone: body.Telefono })
        keepOnEnd(ctx, this.idempotency, scope, claimed.token, () => ({
          ...ctx.session.responseFlashMessages.all(),
          ...(marks.length ? { [FORM_MARKS]: marks } : {}),
        }))
        return next()
      }
      if (claimed.kind === 'mismatch') return next()
      if (claimed.kind === 'replay') {
        // The first answer's cookie carried its session; this request's session gets the flash instead.
        replay(ctx, claimed.response, { cookies: false })
        for (const [name, value] of Object.entries(claimed.response.extra ?? {}))
          if (name !== FORM_MARKS) ctx.session.flash(name, value as any)
        return
      }
      if (Date.now() > deadline) {
        throw new Problem(409, { detail: 'La consulta anterior todavía se está enviando.' })
      }
      await sleep(POLL_MS)
    }
  }
}
