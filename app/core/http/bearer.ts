/*
 * Strict parsing of `Authorization: Bearer <token>` (RFC 6750 token68), shared
 * by app authentication and the operator's metrics token.
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i

/** The token of a well-formed `Authorization: Bearer <token>` header, else null. */
export function bearerToken(header: string | undefined): string | null {
  return header ? (BEARER.exec(header)?.[1] ?? null) : null
}
