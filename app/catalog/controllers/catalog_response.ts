/*
 * What every catalogue controller shares: the ETag of catalogue responses
 * (revision × representation × URL, so an import invalidates them all) and
 * the problem a failed best match becomes (400 naming the parameter).
 */
import type { HttpContext } from '@adonisjs/core/http'
import { etagOf } from '#core/http/etag'
import { negotiate } from '#core/http/negotiation'
import { Problem } from '#core/http/problem'
import { respond, type Shapes } from '#core/http/respond'
import type { MatchFailure } from '#catalog/services/matcher'
import CatalogRevision from '#catalog/services/catalog_revision'

const revision = new CatalogRevision()

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
  const etag = etagOf(`${await revision.current()}\n${contentType}\n${ctx.request.url(true)}`)
  return respond(ctx, shapes, { etag })
}

const MESSAGES: Record<MatchFailure, (field: string) => string> = {
  not_found: (field) => `No hay coincidencias en el catálogo para ${field}.`,
  ambiguous: (field) => `El valor de ${field} coincide con más de una entrada del catálogo; precíselo.`,
}

export function matchProblem(field: string, reason: MatchFailure) {
  return Problem.badRequest({ [field]: [MESSAGES[reason](field)] })
}

export function notFound(what: string) {
  return Problem.notFound(`${what} no existe en el catálogo.`)
}
