/*
 * Strong ETags (docs/design.md §4): `If-None-Match` compares weakly on reads,
 * `If-Match` compares strongly on writes; `*` is honoured by both.
 */
import { hash } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from './problem.js'

export function etagOf(content: string | Buffer): string {
  return `"${hash('sha1', content, 'base64url')}"`
}

function tags(header: string) {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag)

/** True when the client's cached copy is current (weak comparison). */
export function notModified(ctx: HttpContext, etag: string): boolean {
  const header = ctx.request.header('if-none-match')
  if (!header) return false
  return tags(header).some((tag) => tag === '*' || opaque(tag) === opaque(etag))
}

/**
 * The `If-Match` value to enforce on a write, or undefined when the client
 * sent none. Weak tags can never match strongly.
 */
export function ifMatch(ctx: HttpContext): string[] | undefined {
  const header = ctx.request.header('if-match')
  return header ? tags(header) : undefined
}

/** Throws 412 unless `etag` satisfies the request's `If-Match`. */
export function assertIfMatch(ctx: HttpContext, etag: string) {
  const wanted = ifMatch(ctx)
  if (wanted && !wanted.some((tag) => tag === '*' || tag === etag)) {
    throw Problem.preconditionFailed()
  }
}
