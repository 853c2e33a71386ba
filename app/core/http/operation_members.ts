/*
 * The members each operation's JSON body may hold, compiled once from the
 * assembled OpenAPI document (docs/design.md §19): the input gate refuses a
 * body with others, and a handler that reads its own body (a stock sync's
 * rows) asks for an operation's members here.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { buildOpenApiDocument } from '#core/openapi/document'
import { Problem } from './problem.js'
import {
  UNKNOWN_MEMBERS_DETAIL,
  bodyMembers,
  unknownMemberErrors,
  unknownMembers,
  type MemberTree,
} from './unknown_members.js'

/** Per operation (`POST /v3/publicaciones/{adminmail}`), its member tree: compiled on the first JSON body. */
let compiled: Promise<Map<string, MemberTree>> | null = null

function operations() {
  // The trees only: the document is not kept (a few MB the collector would mark on every full collection).
  compiled ??= buildOpenApiDocument().then((document: any) => bodyMembers(document))
  return compiled
}

/** The members a body of `operation` may hold. */
export async function membersOf(operation: string): Promise<MemberTree> {
  const compiledOperations = await operations()
  const tree = compiledOperations.get(operation)
  if (!tree) throw new Error(`No request body documented for ${operation}`)
  return tree
}

/** `/v3/agencias/:adminmail` → `/v3/agencias/{adminmail}`, as the document names it. */
const documentPath = (pattern: string) =>
  pattern.replace(/(.)\/$/, '$1').replace(/:(\w+)\??/g, '{$1}')

/** Throws 400 (`Errors` keyed by path) when the request's JSON object body holds members its operation does not define. */
export async function assertKnownMembers(ctx: HttpContext) {
  const body = ctx.request.body()
  if (body === null || typeof body !== 'object' || !ctx.route) return
  const compiledOperations = await operations()
  const operation = compiledOperations.get(
    `${ctx.request.method()} ${documentPath(ctx.route.pattern)}`
  )
  if (!operation) return
  const found = unknownMembers(body, operation)
  if (found.length) throw Problem.badRequest(unknownMemberErrors(found), UNKNOWN_MEMBERS_DETAIL)
}
