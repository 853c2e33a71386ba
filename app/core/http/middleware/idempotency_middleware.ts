/*
 * `Idempotency-Key` on every POST of the API (docs/design.md §14). Runs after
 * authentication (the key is scoped to the calling app) and around the
 * handler: the first request's response is stored just before it is sent, so
 * a retry that arrives after the client got it always finds it. 5xx answers
 * are not kept (the client may retry), nor are streamed bodies.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { ServerResponse } from 'node:http'
import { inject } from '@adonisjs/core'
import { Problem } from '../problem.js'
import Idempotency, {
  IDEMPOTENCY_HEADER,
  REPLAYED_HEADER,
  fingerprint,
  validKey,
  type Scope,
  type StoredResponse,
} from '../idempotency.js'

/** Headers of the request being answered (its id, its rate-limit budget, CORS), not of the one replayed. */
const NOT_REPLAYED =
  /^(x-request-id|x-ratelimit-.*|ratelimit|ratelimit-policy|content-length|date|connection|transfer-encoding|set-cookie|access-control-.*)$/

const MAX_PATH = 2048

@inject()
export default class IdempotencyMiddleware {
  constructor(private idempotency: Idempotency) {}

  handle(ctx: HttpContext, next: NextFn) {
    return withIdempotencyKey(ctx, this.idempotency, () => fingerprint(ctx.request.raw()), next)
  }
}

/**
 * Runs `next` under the request's Idempotency-Key, if any: the first use runs
 * it and keeps its response; later uses with the same body (`bodyHash`) get
 * that response replayed. A route that reads its own body as a stream calls
 * this once it has read it.
 */
export async function withIdempotencyKey(
  ctx: HttpContext,
  idempotency: Idempotency,
  bodyHash: () => string,
  next: () => Promise<unknown> | unknown
) {
  const key = ctx.request.header(IDEMPOTENCY_HEADER)
  if (key === undefined || ctx.request.method() !== 'POST') return next()
  if (!validKey(key)) {
    const detail = `${IDEMPOTENCY_HEADER} debe tener de 1 a 255 caracteres ASCII visibles.`
    throw Problem.badRequest({ [IDEMPOTENCY_HEADER]: [detail] }, detail)
  }
  const scope: Scope = {
    appId: ctx.caller.id,
    method: 'POST',
    path: ctx.request.url(),
    key,
  }
  // No resource lives at such a path (the handler refuses it); the key's index entry would not fit.
  if (scope.path.length > MAX_PATH) return next()
  const claimed = await idempotency.claim(scope, bodyHash())
  if (claimed.kind === 'mismatch') {
    throw new Problem(422, {
      title: 'La clave de idempotencia ya se usó con otro cuerpo',
      detail: `Esta ${IDEMPOTENCY_HEADER} ya se usó con un cuerpo distinto; use una clave nueva.`,
    })
  }
  if (claimed.kind === 'in-flight') {
    throw new Problem(409, {
      detail: `La primera solicitud con esta ${IDEMPOTENCY_HEADER} todavía está en curso; reintente en unos segundos.`,
      headers: { 'Retry-After': '1' },
    })
  }
  if (claimed.kind === 'replay') return replay(ctx, claimed.response)

  keepOnEnd(ctx, idempotency, scope, claimed.token)
  try {
    return await next()
  } catch (error) {
    // Errors are normally answered downstream; one that escapes leaves nothing to replay.
    await idempotency.release(scope, claimed.token).catch(() => {})
    throw error
  }
}

/** Answers with a stored response; `cookies: false` leaves its Set-Cookie out too. */
export function replay(ctx: HttpContext, stored: StoredResponse, options = { cookies: true }) {
  for (const [name, value] of Object.entries(stored.headers)) {
    if (NOT_REPLAYED.test(name) || (!options.cookies && name === 'set-cookie')) continue
    ctx.response.header(name, value)
  }
  ctx.response.header(REPLAYED_HEADER, 'true')
  ctx.response.status(stored.status)
  if (stored.body.length > 0) ctx.response.send(stored.body)
}

/**
 * Stores the response as it is written: the first `end()` waits for the row,
 * so the key is settled before the client sees the answer.
 */
export function keepOnEnd(
  ctx: HttpContext,
  idempotency: Idempotency,
  scope: Scope,
  token: string,
  extra?: () => Record<string, unknown>
) {
  const res: ServerResponse = ctx.response.response
  const end = res.end
  const write = res.write
  let streamed = false
  res.write = function (...args: any[]) {
    streamed = true
    res.write = write
    return (write as any).apply(res, args)
  } as typeof res.write
  res.end = function (...args: any[]) {
    res.end = end
    res.write = write
    const [chunk] = args
    const status = res.statusCode
    const storable =
      !streamed &&
      status < 500 &&
      (chunk === null || chunk === undefined || typeof chunk === 'string' || Buffer.isBuffer(chunk))
    const settle = storable
      ? idempotency.complete(scope, token, {
          status,
          headers: ctx.response.getHeaders() as StoredResponse['headers'],
          body: chunk ? Buffer.from(chunk) : Buffer.alloc(0),
          extra: extra?.(),
        })
      : idempotency.release(scope, token)
    settle
      .catch((error) => ctx.logger.error({ err: error }, 'idempotency key not settled'))
      .finally(() => (end as any).apply(res, args))
    return res
  } as typeof res.end
}
