/*
 * The input gate's unknown-members rule (docs/design.md §19): a request whose
 * JSON body holds members its operation does not define is a 400. The member
 * trees are core's (#core/services/body_members), shared with the stock sync,
 * which checks its rows against the create operation's.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { operationMembers, unknownMembers } from '#core/services/body_members'
import { Problem } from './problem.js'
import { UNKNOWN_MEMBERS_DETAIL, unknownMemberErrors } from './unknown_members.js'

/** `/v3/agencias/:adminmail` → `/v3/agencias/{adminmail}`, as the document names it. */
const documentPath = (pattern: string) =>
  pattern.replace(/(.)\/$/, '$1').replace(/:(\w+)\??/g, '{$1}')

/** Throws 400 (`Errors` keyed by path) when the request's JSON object body holds members its operation does not define. */
export async function assertKnownMembers(ctx: HttpContext) {
  const body = ctx.request.body()
  if (body === null || typeof body !== 'object' || !ctx.route) return
  const compiledOperations = await operationMembers()
  const operation = compiledOperations.get(
    `${ctx.request.method()} ${documentPath(ctx.route.pattern)}`
  )
  if (!operation) return
  const found = unknownMembers(body, operation)
  if (found.length) throw Problem.badRequest(unknownMemberErrors(found), UNKNOWN_MEMBERS_DETAIL)
}
