/*
 * Strong ETags (docs/design.md §4): `If-None-Match` compares weakly on reads,
 * `If-Match` compares strongly on writes; `*` is honoured by both.
 * A header that is not `*` or a list of quoted entity tags (RFC 9110 §8.8.3)
 * is a 400 naming the header — an unquoted `2.6` would otherwise never match
 * and leave the client guessing at a bare 412 (docs/design.md §19).
 */
import { hash } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from './problem.js'

export function etagOf(content: string | Buffer): string {
  return `"${hash('sha1', content, 'base64url')}"`
}

type Precondition = 'If-Match' | 'If-None-Match'

// One list member: optional W/, a quoted opaque tag (etagc: %x21 / %x23-7E / obs-text), then `,` or the end.
const MEMBER = /^[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/
const EMPTY_MEMBER = /^[ \t]*,/

/** The tags of a precondition header as sent (`W/` kept), or null when it is malformed. */
export function parseTags(header: string): string[] | null {
  if (header.trim() === '*') return ['*']
  const tags: string[] = []
  let rest = header
  while (rest.trim() !== '') {
    // RFC 9110 §5.6.1: empty list elements are accepted and ignored.
    const empty = EMPTY_MEMBER.exec(rest)
    if (empty) {
      rest = rest.slice(empty[0].length)
      continue
    }
    const member = MEMBER.exec(rest)
    if (!member) return null
    tags.push(`${member[1] ?? ''}"${member[2]}"`)
    rest = rest.slice(member[0].length)
  }
  return tags.length > 0 ? tags : null
}

/** How to write the header, with the sender's own value quoted when it looks like a bare tag. */
function quotingHint(name: Precondition, header: string) {
  const bare = header.trim().replace(/^W\//, '')
  const example = /^[\x21\x23-\x2b\x2d-\x7e]+$/.test(bare) ? bare : '2.6'
  return (
    `Debe ser * o una lista de entity tags entre comillas dobles, tal como los da el encabezado ETag: "${example}"` +
    (name === 'If-None-Match' ? ` (o débil: W/"${example}").` : '.')
  )
}

/** The tags of `name`, undefined when absent; a malformed value throws 400 naming the header. */
function read(ctx: HttpContext, name: Precondition): string[] | undefined {
  const header = ctx.request.header(name.toLowerCase())
  if (header === undefined) return undefined
  const tags = parseTags(header)
  if (!tags) {
    throw Problem.badRequest(
      { [name]: [quotingHint(name, header)] },
      `El encabezado ${name} no es válido.`
    )
  }
  return tags
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag)

/**
 * True when the client's cached copy is current (weak comparison). Strict (the
 * API's resources, via `respond`): a malformed If-None-Match is a 400. Lenient
 * (the buyers' HTML pages, which declare no 400): it simply does not match.
 */
export function notModified(
  ctx: HttpContext,
  etag: string,
  options: { strict?: boolean } = {}
): boolean {
  let tags: string[] | undefined
  if (options.strict) {
    tags = read(ctx, 'If-None-Match')
  } else {
    const header = ctx.request.header('if-none-match')
    tags = header === undefined ? undefined : (parseTags(header) ?? [])
  }
  if (!tags) return false
  return tags.some((tag) => tag === '*' || opaque(tag) === opaque(etag))
}

/**
 * The `If-Match` tags to enforce on a write, or undefined when the client sent
 * none; a malformed value throws 400. Weak tags are well-formed but can never
 * match strongly (so they end in 412, not 400).
 */
export function ifMatch(ctx: HttpContext): string[] | undefined {
  return read(ctx, 'If-Match')
}

/** The 412 of a failed `If-Match`, carrying the resource's current ETag so the client can retry without a GET. */
export function preconditionFailed(currentEtag?: string) {
  return new Problem(412, {
    detail: currentEtag
      ? `El ETag enviado no coincide con la versión actual (${currentEtag}, en el encabezado ETag).`
      : 'El ETag enviado no coincide con la versión actual.',
    headers: currentEtag ? { ETag: currentEtag } : undefined,
  })
}

/** Throws 400 on a malformed `If-Match`, 412 (with the current ETag) unless `etag` satisfies it. */
export function assertIfMatch(ctx: HttpContext, etag: string) {
  const wanted = ifMatch(ctx)
  if (wanted && !wanted.some((tag) => tag === '*' || tag === etag)) {
    throw preconditionFailed(etag)
  }
}
