/*
 * Ranked, accent- and case-insensitive best match over one catalogue table.
 *
 * An input may be an id, an API URL or path (`/v3/marcas/7`), the full name,
 * a codename or part of a name. The candidates come from MatchStore
 * (containment first, trigram word similarity for typos); the rules that pick
 * one, or call the input ambiguous, are here.
 */
import { inject } from '@adonisjs/core'
import { fail, ok, type Fail, type Ok } from '#core/result'
import MatchStore, {
  likeLiteral,
  type Candidate,
  type MatchScope,
} from '#catalog/stores/match_store'

export { likeLiteral, type Candidate, type MatchScope }

export type MatchFailure = 'not_found' | 'ambiguous'

/** At most this many of an ambiguity's candidates are named (Extensions.Candidatos). */
export const MAX_CANDIDATES = 10

/** A best match: one id, or why not — an ambiguity with the ids it could not choose between. */
export type BestMatch = Ok<number> | Fail<MatchFailure, { ids: number[] }>

const INT32_MAX = 2_147_483_647
/** Two candidates closer than this in similarity are a tie: the input is ambiguous. */
const MARGIN = 0.1

/** The API collection of each table, for href inputs. */
const COLLECTIONS: Record<MatchScope['table'], string> = {
  brands: '/v3/marcas',
  vehicle_models: '/v3/modelos',
  versions: '/v3/versiones',
  regions: '/v3/regiones',
  cities: '/v3/ciudades',
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

@inject()
export default class Matcher {
  constructor(private store: MatchStore) {}

  /** Resolves `rawInput` to one id of the scope's table, or says why not. */
  async bestMatchId(scope: MatchScope, rawInput: string): Promise<BestMatch> {
    const input = rawInput.trim()
    if (input.length === 0) return notFound()
    const reference = parseReference(input, COLLECTIONS[scope.table])
    if (reference.kind === 'invalid') return notFound()
    if (reference.kind === 'id')
      return (await this.store.exists(scope, reference.id)) ? ok(reference.id) : notFound()

    const candidates = await this.store.containing(scope, input)
    const decided = decide(
      candidates.length > 0 ? candidates : await this.store.similar(scope, input)
    )
    if (decided.ok || reference.kind !== 'digits') return decided
    // A bare number that names nothing is taken as an id.
    return (await this.store.exists(scope, reference.id)) ? ok(reference.id) : decided
  }

  /** Up to 50 versions of the scope, in its order: for an empty version input with filters. */
  versionsOf(scope: Extract<MatchScope, { table: 'versions' }>) {
    return this.store.versionsOf(scope)
  }
}

const notFound = (): BestMatch => fail('not_found', { details: { ids: [] } })

/** The candidates tied with `top`: the ones the input cannot tell apart (bounded). */
const ambiguous = (tied: Candidate[]): BestMatch =>
  fail('ambiguous', { details: { ids: tied.slice(0, MAX_CANDIDATES).map(({ id }) => id) } })

/** One answer when the best candidate clearly beats the next one; rows of a group count once. */
export function decide(candidates: Candidate[]): BestMatch {
  const seen = new Set<string | number>()
  const best = candidates.filter(
    (candidate) => !seen.has(candidate.group) && seen.add(candidate.group)
  )
  if (best.length === 0) return notFound()
  const [top, next] = best
  if (!next) return ok(top.id)
  if (top.exact) return next.exact ? ambiguous(best.filter(({ exact }) => exact)) : ok(top.id)
  if (top.prefix !== next.prefix) return ok(top.id)
  if (top.score - next.score >= MARGIN) return ok(top.id)
  return ambiguous(
    best.filter(({ prefix, score }) => prefix === top.prefix && top.score - score < MARGIN)
  )
}
