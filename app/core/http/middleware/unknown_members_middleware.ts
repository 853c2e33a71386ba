/*
 * Unknown body members → 400 on every operation with a JSON body
 * (docs/design.md §19), in one place: the operation's request schema comes
 * from the assembled OpenAPI document, so a new operation is covered as soon
 * as it is documented (an undocumented route fails the build anyway).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { openApiDocument } from '#core/openapi/document'
import { Problem } from '../problem.js'
import {
  UNKNOWN_MEMBERS_DETAIL,
  bodyMembers,
  unknownMemberErrors,
  unknownMembers,
  type MemberTree,
} from '../unknown_members.js'

/** Per operation, the members its body may hold: compiled once, on the first JSON body. */
let compiled: Promise<Map<string, MemberTree>> | null = null

function load() {
  compiled ??= openApiDocument().then((document: any) => bodyMembers(document))
  return compiled
}

/**
 * The members a body of `operation` (`POST /v3/publicaciones/{adminmail}`)
 * may hold, for a handler that checks bodies it reads itself (a stock sync's rows).
 */
export async function membersOf(operation: string): Promise<MemberTree> {
  const operations = await load()
  const tree = operations.get(operation)
  if (!tree) throw new Error(`No request body documented for ${operation}`)
  return tree
}

/** `/v3/agencias/:adminmail` → `/v3/agencias/{adminmail}`, as the document names it. */
const documentPath = (pattern: string) =>
  pattern.replace(/(.)\/$/, '$1').replace(/:(\w+)\??/g, '{$1}')

export default class UnknownMembersMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const { request } = ctx
    const body = request.body()
    // Forms (the buyers' pages, registration by form) are not JSON bodies; GETs carry none.
    if (request.bodyType !== 'json' || body === null || typeof body !== 'object' || !ctx.route) {
      return next()
    }
    const operations = await load()
    const operation = operations.get(`${request.method()} ${documentPath(ctx.route.pattern)}`)
    if (operation) {
      const found = unknownMembers(body, operation)
      if (found.length) throw Problem.badRequest(unknownMemberErrors(found), UNKNOWN_MEMBERS_DETAIL)
    }
    return next()
  }
}
