/*
 * Resolves what callers send as Marca / Modelo / Version (id, API URL or
 * path, name, part of a name, codename) to catalogue entries.
 */
import { errors } from '@adonisjs/lucid'
import { fail, ok, type Result } from '#core/result'
import { fold } from '#core/value_sets'
import { BODY_TYPES, type BodyType } from '#catalog/body_types'
import { inject } from '@adonisjs/core'
import VehicleStore, {
  type BrandRef,
  type ModelRef,
  type VersionRef,
} from '#catalog/stores/vehicle_store'
import { YEAR_WINDOW } from '#catalog/stores/match_store'
import Matcher, { parseReference, type MatchFailure } from './matcher.js'

export type { BrandRef, ModelRef, VersionRef }
export { YEAR_WINDOW }

export type VersionFilters = { propulsion?: string | null; transmission?: string | null }

@inject()
export default class VehicleResolver {
  constructor(
    private store: VehicleStore,
    private matcher: Matcher
  ) {}

  async brand(input: string): Promise<Result<BrandRef, MatchFailure>> {
    const found = await this.brandId(input)
    if (!found.ok) return found
    return ok(orNotFound(await this.store.brand(found.value)))
  }

  /** The id of the brand `input` names: what a model match needs, without reading the brand. */
  brandId(input: string): Promise<Result<number, MatchFailure>> {
    return this.matcher.bestMatchId({ table: 'brands' }, input)
  }

  /** A model of `brandId`; with `bodyType` (a canonical Carroceria name) only models built that way. */
  async model(
    input: string,
    brandId: number,
    bodyType?: string | null
  ): Promise<Result<ModelRef, MatchFailure>> {
    const found = await this.matcher.bestMatchId(
      { table: 'vehicle_models', brandId, bodyType },
      input
    )
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
  ): Promise<Result<VersionRef, MatchFailure>> {
    const scope = { table: 'versions' as const, modelId, year, ...filters }
    if (input.trim().length === 0) {
      const rows = await this.matcher.versionsOf(scope)
      if (rows.length === 0) return fail('not_found')
      if (new Set(rows.map((row) => row.codename)).size > 1) return fail('ambiguous')
      return this.versionById(rows[0].id)
    }
    const found = await this.matcher.bestMatchId(scope, input)
    return found.ok ? this.versionById(found.value) : found
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

/** The row a match just found (gone only if an import deleted it meanwhile: 404, as Lucid's `firstOrFail`). */
function orNotFound<T>(row: T | null): T {
  if (!row) throw new errors.E_ROW_NOT_FOUND()
  return row
}
