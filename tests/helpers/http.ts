import env from '#start/env'

/** Base URL of the HTTP server the functional suite runs. */
export function baseUrl() {
  return `http://${env.get('HOST') ?? '127.0.0.1'}:${env.get('PORT') ?? 3333}`
}

/** A raw request (bodies of any type, exact headers) against the test server. */
export function raw(path: string, init: RequestInit = {}) {
  return fetch(baseUrl() + path, init)
}
