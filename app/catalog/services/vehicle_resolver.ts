/*
 * Resolves what callers send as Marca / Modelo / Version (id, API URL or
 * path, name, part of a name, codename) to catalogue entries.
 */
import { errors } from '@adonisjs/lucid'
import { fail, ok, type Fail, type Ok, type Result } from '#core/result'
import { fold } from '#core/value_sets'
import { BODY_TYPES, type BodyType } from '#catalog/body_types'
import { inject } from '@adonisjs/core'
import VehicleStore, {
  type BrandRef,
  type ModelRef,
  type VersionRef,
} from '#catalog/stores/vehicle_store'
import MatchStore, {
  YEAR_WINDOW,
  type MatchScope,
  type NamedEntry,
} from '#catalog/stores/match_store'
import Matcher, {
  MAX_CANDIDATES,
  parseReference,
  type BestMatch,
  type MatchFailure,
} from './matcher.js'
import { nearestNames } from './nearest_names.js'

export type { BrandRef, ModelRef, VersionRef, NamedEntry }
export { YEAR_WINDOW }

/** Why a brand, model or version was not resolved: what `explain` needs to say more. */
export type VehicleMatchDetails = { ids: number[]; scope: MatchScope; input: string }
export type VehicleMatchFailure = Fail<MatchFailure, VehicleMatchDetails>
export type Resolved<T> = Ok<T> | VehicleMatchFailure

/** An ambiguity's candidates, or the nearest names to an input that matched nothing. */
export type Explanation = { candidates: NamedEntry[]; suggestions: NamedEntry[] }

export type VersionFilters = { propulsion?: string | null; transmission?: string | null }

@inject()
export default class VehicleResolver {
  constructor(
    private store: VehicleStore,
    private matcher: Matcher,
    private names: MatchStore
  ) {}

  async brand(input: string): Promise<Resolved<BrandRef>> {
    const found = await this.brandId(input)
    if (!found.ok) return found
    return ok(orNotFound(await this.store.brand(found.value)))
  }

  /** The id of the brand `input` names: what a model match needs, without reading the brand. */
  async brandId(input: string): Promise<Resolved<number>> {
    const scope = { table: 'brands' as const }
    return failureIn(scope, input, await this.matcher.bestMatchId(scope, input))
  }

  /**
   * What a failed match can say more, read only when it is answered: an
   * ambiguity's candidates (at most MAX_CANDIDATES), or for a model or version
   * that matched nothing the nearest names in its brand or model. Kept apart so
   * that a write whose version is not in the catalogue (allowed) pays nothing.
   */
  async explain(failure: VehicleMatchFailure): Promise<Explanation> {
    const { ids, scope, input } = failure.details!
    if (failure.reason === 'ambiguous') {
      const table = scope.table as NamedEntry['table']
      return { candidates: await this.names.named(table, ids), suggestions: [] }
    }
    if (scope.table !== 'vehicle_models' && scope.table !== 'versions')
      return { candidates: [], suggestions: [] }
    const looser = scope.table === 'versions' ? { ...scope, year: null } : scope
    return { candidates: [], suggestions: nearestNames(input, await this.names.namesIn(looser)) }
  }

  /** A model of `brandId`; with `bodyType` (a canonical Carroceria name) only models built that way. */
  async model(
    input: string,
    brandId: number,
    bodyType?: string | null
  ): Promise<Resolved<ModelRef>> {
    const scope = { table: 'vehicle_models' as const, brandId, bodyType }
    const found = failureIn(scope, input, await this.matcher.bestMatchId(scope, input))
    if (!found.ok) return found
    return ok(orNotFound(await this.store.model(found.value)))
  }

  /**
   * A version of `modelId`. With `year`, only versions within ±YEAR_WINDOW
   * years, the closest first; without it, versions on the new-vehicle market
   * rank first. An empty `input` with filters picks the only version that fits.
   */
  async version(
    input: string,
    modelId: number,
    year?: number | null,
    filters: VersionFilters = {}
  ): Promise<Resolved<VersionRef>> {
    const scope = { table: 'versions' as const, modelId, year, ...filters }
    if (input.trim().length === 0) {
      const rows = await this.matcher.versionsOf(scope)
      const details = { ids: [], scope, input }
      if (rows.length === 0) return fail('not_found', { details })
      const firsts = new Map<string, number>()
      for (const row of rows) if (!firsts.has(row.codename)) firsts.set(row.codename, row.id)
      if (firsts.size > 1) {
        const ids = [...firsts.values()].slice(0, MAX_CANDIDATES)
        return fail('ambiguous', { details: { ...details, ids } })
      }
      return this.#version(rows[0].id, scope, input)
    }
    const found = failureIn(scope, input, await this.matcher.bestMatchId(scope, input))
    return found.ok ? this.#version(found.value, scope, input) : found
  }

  async #version(id: number, scope: MatchScope, input: string): Promise<Resolved<VersionRef>> {
    const version = await this.versionById(id)
    return version.ok ? version : fail('not_found', { details: { ids: [], scope, input } })
  }

  async versionById(id: number): Promise<Result<VersionRef, 'not_found'>> {
    const version = await this.store.version(id)
    return version ? ok(version) : fail('not_found')
  }

  /** A Carroceria by id, href, name or codename. */
  bodyType(input: string): Result<BodyType, MatchFailure> {
    const text = input.trim()
    const reference = parseReference(text, '/v3/carrocerias')
    if (reference.kind === 'id' || reference.kind === 'digits') {
      const byId = BODY_TYPES.find((bodyType) => bodyType.id === reference.id)
      return byId ? ok(byId) : fail('not_found')
    }
    const key = fold(text)
    if (reference.kind === 'invalid' || key.length === 0) return fail('not_found')
    const exact = BODY_TYPES.find(
      (bodyType) => fold(bodyType.name) === key || bodyType.codename === key
    )
    if (exact) return ok(exact)
    const partial = BODY_TYPES.filter((bodyType) => fold(bodyType.name).includes(key))
    if (partial.length === 1) return ok(partial[0])
    return fail(partial.length === 0 ? 'not_found' : 'ambiguous')
  }
}

/** A matcher's failure with the scope and input `explain` needs. */
function failureIn(scope: MatchScope, input: string, found: BestMatch): Resolved<number> {
  if (found.ok) return found
  return fail(found.reason, { details: { ids: found.details?.ids ?? [], scope, input } })
}

/** The row a match just found (gone only if an import deleted it meanwhile: 404, as Lucid's `firstOrFail`). */
function orNotFound<T>(row: T | null): T {
  if (!row) throw new errors.E_ROW_NOT_FOUND()
  return row
}
