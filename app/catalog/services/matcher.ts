/*
 * Ranked, accent- and case-insensitive best match over one catalogue table.
 *
 * An input may be an id, an API URL or path (`/v3/marcas/7`), the full name,
 * a codename or part of a name. Text goes through `catalog_fold` (unaccent +
 * lower) on the database side and is looked up in the table's trigram-indexed
 * `search` column: containment first, trigram word similarity for typos.
 */
import { poolQuery, SqlParams, whereOf } from '#core/database/pool_query'
import { fail, ok, type Result } from '#core/result'

export type MatchFailure = 'not_found' | 'ambiguous'

const INT32_MAX = 2_147_483_647
/** Two candidates closer than this in similarity are a tie: the input is ambiguous. */
const MARGIN = 0.1

export type MatchTarget = {
  table: string
  /** `/v3/<collection>` of the resource, for href inputs. */
  collection: string
  /** SQL boolean telling an exact hit, with `?` wherever the input goes. */
  exactSql: string
  /** Rows that count as one answer (e.g. a version across model years). Defaults to the id. */
  groupColumn?: string
  /** Restricts the candidates (e.g. the models of one brand): SQL conditions on `params`. */
  scope?: (params: SqlParams) => string[]
  /** Extra ordering ahead of similarity inside a group (e.g. closest model year), on `params`. */
  order?: (params: SqlParams) => string
}

type Reference =
  | { kind: 'id'; id: number }
  | { kind: 'invalid' }
  | { kind: 'digits'; id: number }
  | { kind: 'text' }

/** Classifies an input: a resource href, a bare number, or text. */
export function parseReference(input: string, collection: string): Reference {
  let path: string | null = null
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    try {
      path = new URL(input).pathname
    } catch {
      return { kind: 'invalid' }
    }
  } else if (input.startsWith('/')) {
    path = input.split(/[?#]/)[0]
  }
  if (path !== null) {
    const match = path.replace(/\/+$/, '').match(new RegExp(`^${collection}/(\\d{1,10})$`))
    const id = match ? Number(match[1]) : Number.NaN
    return id >= 1 && id <= INT32_MAX ? { kind: 'id', id } : { kind: 'invalid' }
  }
  if (/^\d{1,10}$/.test(input) && Number(input) >= 1 && Number(input) <= INT32_MAX) {
    return { kind: 'digits', id: Number(input) }
  }
  return { kind: 'text' }
}

/** Escapes LIKE wildcards so user text matches literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}

export type Candidate = {
  id: number
  group: string | number
  exact: boolean
  prefix: boolean
  score: number
}

/** Resolves `input` to one id of `target.table`, or says why not. */
export async function bestMatchId(
  target: MatchTarget,
  rawInput: string
): Promise<Result<number, MatchFailure>> {
  const input = rawInput.trim()
  if (input.length === 0) return fail('not_found')
  const reference = parseReference(input, target.collection)
  if (reference.kind === 'invalid') return fail('not_found')
  if (reference.kind === 'id')
    return (await exists(target, reference.id)) ? ok(reference.id) : fail('not_found')

  const candidates = await containing(target, input)
  const decided = decide(candidates.length > 0 ? candidates : await similar(target, input))
  if (decided.ok || reference.kind !== 'digits') return decided
  // A bare number that names nothing is taken as an id.
  return (await exists(target, reference.id)) ? ok(reference.id) : decided
}

async function exists(target: MatchTarget, id: number) {
  const params = new SqlParams()
  const conditions = [`${target.table}.id = ${params.add(id)}`, ...(target.scope?.(params) ?? [])]
  const sql = `select ${target.table}.id from ${target.table}${whereOf(conditions)} limit 1`
  const rows = await poolQuery(sql, params.values)
  return rows.length > 0
}

/**
 * The candidates, best first: `filter` (on the input's placeholders) picks
 * them and `score` ranks those equally exact and prefixed.
 */
async function ranked(
  target: MatchTarget,
  input: string,
  filter: (folded: string, literal: string) => { score: string; where: string }
): Promise<Candidate[]> {
  const { table } = target
  const params = new SqlParams()
  const text = params.add(input)
  const literal = params.add(likeLiteral(input))
  const { score, where } = filter(text, literal)
  const conditions = [where, ...(target.scope?.(params) ?? [])]
  const order = target.order?.(params)
  const sql =
    `select ${table}.id, ${target.groupColumn ?? `${table}.id`} as "group", ` +
    `(${target.exactSql.replaceAll('?', text)}) as exact, ` +
    `catalog_fold(${table}.name) like catalog_fold(${literal}) || '%' as prefix, ${score} as score ` +
    `from ${table}${whereOf(conditions)} ` +
    `order by exact desc, prefix desc, score desc, ${order ? `${order}, ` : ''}${table}.id asc limit 50`
  const rows = await poolQuery<any>(sql, params.values)
  return rows.map((row) => ({
    id: row.id,
    group: row.group,
    exact: row.exact,
    prefix: row.prefix,
    score: Number(row.score),
  }))
}

function containing(target: MatchTarget, input: string): Promise<Candidate[]> {
  return ranked(target, input, (text, literal) => ({
    score: `similarity(catalog_fold(${target.table}.name), catalog_fold(${text}))`,
    where: `${target.table}.search like '%' || catalog_fold(${literal}) || '%'`,
  }))
}

function similar(target: MatchTarget, input: string): Promise<Candidate[]> {
  return ranked(target, input, (text) => ({
    score: `word_similarity(catalog_fold(${text}), ${target.table}.search)`,
    where: `catalog_fold(${text}) <% ${target.table}.search`,
  }))
}

/** One answer when the best candidate clearly beats the next one; rows of a group count once. */
export function decide(candidates: Candidate[]): Result<number, MatchFailure> {
  const seen = new Set<string | number>()
  const best = candidates.filter(
    (candidate) => !seen.has(candidate.group) && seen.add(candidate.group)
  )
  if (best.length === 0) return fail('not_found')
  const [top, next] = best
  if (!next) return ok(top.id)
  if (top.exact) return next.exact ? fail('ambiguous') : ok(top.id)
  if (top.prefix !== next.prefix) return ok(top.id)
  return top.score - next.score >= MARGIN ? ok(top.id) : fail('ambiguous')
}
