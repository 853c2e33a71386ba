import env from '#start/env'
import { assertContract } from '#tests/helpers/contract'

/** Base URL of the HTTP server the functional suite runs. */
export function baseUrl() {
  return `http://${env.get('HOST') ?? '127.0.0.1'}:${env.get('PORT') ?? 3333}`
}

/**
 * A raw request (bodies of any type, exact headers) against the test server. The response is
 * checked against the OpenAPI document (tests/helpers/contract.ts) before it is returned.
 */
export async function raw(path: string, init: RequestInit = {}) {
  const response = await fetch(baseUrl() + path, init)
  const requested = (init.method ?? 'GET').toUpperCase()
  // A followed redirect ends on a GET, except 307/308 which keep the method.
  const method = response.redirected && !['GET', 'HEAD'].includes(requested) ? 'GET' : requested
  await assertContract({
    method,
    path: new URL(response.url).pathname,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.clone().arrayBuffer()),
  })
  return response
}
