/*
 * What every catalogue controller shares: the ETag of catalogue responses
 * (revision × representation × URL, so an import invalidates them all) and
 * the problem a failed best match becomes (400 naming the parameter).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { etagOf } from '#core/http/etag'
import { negotiate } from '#core/http/negotiation'
import { Problem } from '#core/http/problem'
import { respond, type Shapes } from '#core/http/respond'
import type { MatchFailure } from '#catalog/services/matcher'
import CatalogRevision from '#catalog/services/catalog_revision'

const revision = new CatalogRevision()
const revisions = new WeakMap<HttpContext, string>()

/**
 * Route middleware of every catalogue route: reads the revision before the
 * handler reads any data. An import commits its data before it bumps the
 * revision, so a body read afterwards is at least as new as its ETag claims;
 * read the other way round, an import committing in between would give the
 * old body the new ETag, and clients would keep it until the next import.
 */
export async function readCatalogRevision(ctx: HttpContext, next: NextFn) {
  revisions.set(ctx, await revision.current())
  return next()
}

/**
 * The query string with empty values dropped: an RFC 6570 expansion with an
 * empty variable (`?q=`) means "no filter"; a required parameter sent empty
 * is then reported as missing.
 */
export function queryOf(ctx: HttpContext): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ctx.request.qs()).filter(([, value]) => value !== ''))
}

export async function respondCatalog(ctx: HttpContext, shapes: Shapes) {
  negotiate(ctx)
  const contentType = String(ctx.response.getHeader('Content-Type'))
  const current = revisions.get(ctx) ?? (await revision.current())
  const etag = etagOf(`${current}\n${contentType}\n${ctx.request.url(true)}`)
  return respond(ctx, shapes, { etag })
}

const MESSAGES: Record<MatchFailure, (field: string) => string> = {
  not_found: (field) => `No hay coincidencias en el catálogo para ${field}.`,
  ambiguous: (field) =>
    `El valor de ${field} coincide con más de una entrada del catálogo; precíselo.`,
}

export function matchProblem(field: string, reason: MatchFailure) {
  return Problem.badRequest({ [field]: [MESSAGES[reason](field)] })
}

export function notFound(what: string) {
  return Problem.notFound(`${what} no existe en el catálogo.`)
}
