/*
 * The one shape of every catalogue endpoint — a list, one entry, a best match —
 * written once: the query read (empty values dropped), the ETag of catalogue
 * responses (revision × representation × URL, so an import invalidates them
 * all), the 404 of a missing entry and the 400 naming the parameter a best
 * match failed on. Controllers only say which resource and how to read it.
 */
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { VineValidator } from '@vinejs/vine'
import type { Infer, SchemaTypes } from '@vinejs/vine/types'
import { etagOf } from '#core/http/etag'
import type { Links } from '#core/http/links'
import { negotiate } from '#core/http/negotiation'
import { Problem } from '#core/http/problem'
import { respond, type Shapes } from '#core/http/respond'
import CatalogRevision from '#catalog/services/catalog_revision'
import type { Matched } from '#catalog/services/match_vehicle'
import { matchProblem } from '#catalog/http/problems'
import { idValidator } from '#catalog/validators/catalog_validators'
import { listShapes, shapes, type CatalogKind } from '#catalog/transformers/vehicle_transformer'

/** The revision each request read before its data (readCatalogRevision). */
const revisions = new WeakMap<HttpContext, string>()

/**
 * Route middleware of every catalogue route: reads the revision before the
 * handler reads any data. An import commits its data before it bumps the
 * revision, so a body read afterwards is at least as new as its ETag claims;
 * read the other way round, an import committing in between would give the
 * old body the new ETag, and clients would keep it until the next import.
 */
export async function readCatalogRevision(ctx: HttpContext, next: NextFn) {
  revisions.set(ctx, await currentRevision())
  return next()
}

async function currentRevision() {
  const revision = await app.container.make(CatalogRevision)
  return revision.current()
}

/**
 * The query string validated, with empty values dropped: an RFC 6570 expansion
 * with an empty variable (`?q=`) means "no filter"; a required parameter sent
 * empty is then reported as missing.
 */
export function catalogQuery<S extends SchemaTypes>(
  ctx: HttpContext,
  validator: VineValidator<S, undefined>
): Promise<Infer<S>> {
  const query = Object.entries(ctx.request.qs()).filter(([, value]) => value !== '')
  return ctx.request.validateUsing(validator, { data: Object.fromEntries(query), meta: undefined })
}

/** A list envelope of `entries` with `links`. */
export function respondList<T>(ctx: HttpContext, kind: CatalogKind<T>, links: Links, entries: T[]) {
  return respondCatalog(ctx, listShapes(links, entries, kind.full, kind.ref))
}

/** The entry, or 404. */
export function respondFound<T>(
  ctx: HttpContext,
  kind: CatalogKind<T>,
  entry: T | null | undefined
) {
  if (!entry) throw Problem.notFound(`${kind.missing} no existe en el catálogo.`)
  return respondCatalog(ctx, shapes(entry, kind.full, kind.ref))
}

/** GET …/{id}: the id validated (a non-integer is a 400), the entry read by `find`, or 404. */
export async function respondEntry<T>(
  ctx: HttpContext,
  kind: CatalogKind<T>,
  find: (id: number) => Promise<T | null>
) {
  const { id } = await ctx.request.validateUsing(idValidator, { data: { id: ctx.params.id } })
  return respondFound(ctx, kind, await find(id))
}

/** A best match's entry, or 400 naming the parameters it failed on (#catalog/http/problems). */
export function respondMatch<T>(ctx: HttpContext, kind: CatalogKind<T>, matched: Matched<T>) {
  if (!matched.ok) throw matchProblem(matched.details ?? [])
  return respondCatalog(ctx, shapes(matched.value, kind.full, kind.ref))
}

async function respondCatalog(ctx: HttpContext, body: Shapes) {
  negotiate(ctx)
  const contentType = String(ctx.response.getHeader('Content-Type'))
  const current = revisions.get(ctx) ?? (await currentRevision())
  const etag = etagOf(`${current}\n${contentType}\n${ctx.request.url(true)}`)
  return respond(ctx, body, { etag })
}
