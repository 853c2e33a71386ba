/*
 * The one resolver of `{adminmail}` for the calling app (docs/spec.md §7):
 * an agency that does not exist, or is not linked to the app, answers 404 on
 * reads and 403 on writes. A helper, not a route middleware, so that each
 * action keeps its order of checks (some validate the body first).
 */
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'

export const NOT_FOR_APP = 'La agencia no existe para esta aplicación.'

export async function agencyOfCaller(
  ctx: HttpContext,
  mode: 'read' | 'write',
  detail = NOT_FOR_APP
): Promise<AgencyView> {
  const directory = await ctx.containerResolver.make(AgencyDirectory)
  const agency = await directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
  if (!agency) throw mode === 'read' ? Problem.notFound(detail) : Problem.forbidden(detail)
  return agency
}
