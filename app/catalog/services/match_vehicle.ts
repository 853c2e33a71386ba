/*
 * The catalogue's bestmatch of a brand, model or version from the query
 * parameters (docs/spec.md §4.7): each step narrows the next (the model within
 * the brand found, the version within the model), and the first step that
 * fails names its parameter. Propulsion and transmission must be values of
 * their closed sets (both reported when both are not).
 */
import { inject } from '@adonisjs/core'
import { fail, ok, type Fail, type Ok } from '#core/result'
import VehicleResolver, {
  type BrandRef,
  type ModelRef,
  type NamedEntry,
  type VehicleMatchFailure,
  type VersionRef,
} from './vehicle_resolver.js'
import { propulsionOf, transmissionOf } from './normalize.js'
import type { MatchFailure } from './matcher.js'

export type MatchParam = 'make' | 'model' | 'version' | 'bodystyle' | 'propulsion' | 'transmission'
/**
 * The parameter a match failed on — always one the caller sent. `versions_ambiguous`
 * and `no_versions`: no version was sent, and several or none fit the model and filters.
 */
export type MatchIssue = {
  param: MatchParam
  issue: MatchFailure | 'unknown_value' | 'versions_ambiguous' | 'no_versions'
  /** An ambiguity's candidates (bounded). */
  candidates?: NamedEntry[]
  /** The nearest names to a model or version that matched nothing. */
  suggestions?: NamedEntry[]
}
export type Matched<T> = Ok<T> | Fail<'no_match', MatchIssue[]>

export type ModelQuery = { make: string; model: string; bodystyle?: string }
export type VersionQuery = {
  make: string
  model: string
  version?: string
  year?: number
  propulsion?: string
  transmission?: string
}

const noMatch = (...details: MatchIssue[]) => fail('no_match', { details })

@inject()
export default class MatchVehicle {
  constructor(private vehicles: VehicleResolver) {}

  async brand(make: string): Promise<Matched<BrandRef>> {
    const brand = await this.vehicles.brand(make)
    return brand.ok ? brand : noMatch(await this.#issue('make', brand))
  }

  /** The failed parameter with what the resolver can say more about it. */
  async #issue(param: MatchParam, failure: VehicleMatchFailure): Promise<MatchIssue> {
    const { candidates, suggestions } = await this.vehicles.explain(failure)
    const versionless = param === 'version' && failure.details?.input.trim() === ''
    const named = {
      ...(candidates.length > 0 ? { candidates } : {}),
      ...(suggestions.length > 0 ? { suggestions } : {}),
    }
    if (versionless)
      return failure.reason === 'ambiguous'
        ? { param: 'model', issue: 'versions_ambiguous', ...named }
        : { param: 'model', issue: 'no_versions' }
    return { param, issue: failure.reason, ...named }
  }

  /** With `bodystyle`, only models built that way. */
  async model(query: ModelQuery): Promise<Matched<ModelRef>> {
    const bodyType = query.bodystyle ? this.vehicles.bodyType(query.bodystyle) : null
    if (bodyType && !bodyType.ok) return noMatch({ param: 'bodystyle', issue: bodyType.reason })
    const brandId = await this.vehicles.brandId(query.make)
    if (!brandId.ok) return noMatch(await this.#issue('make', brandId))
    const model = await this.vehicles.model(query.model, brandId.value, bodyType?.value.name)
    return model.ok ? model : noMatch(await this.#issue('model', model))
  }

  /** With `year`, versions within its window; an empty `version` picks the only one that fits. */
  async version(query: VersionQuery): Promise<Matched<VersionRef>> {
    const propulsion = query.propulsion ? propulsionOf(query.propulsion) : null
    const transmission = query.transmission ? transmissionOf(query.transmission) : null
    const unknown: MatchIssue[] = [
      ...(query.propulsion && !propulsion
        ? [{ param: 'propulsion' as const, issue: 'unknown_value' as const }]
        : []),
      ...(query.transmission && !transmission
        ? [{ param: 'transmission' as const, issue: 'unknown_value' as const }]
        : []),
    ]
    if (unknown.length > 0) return noMatch(...unknown)
    const brand = await this.brand(query.make)
    if (!brand.ok) return brand
    const model = await this.vehicles.model(query.model, brand.value.id)
    if (!model.ok) return noMatch(await this.#issue('model', model))
    const version = await this.vehicles.version(query.version ?? '', model.value.id, query.year, {
      propulsion,
      transmission,
    })
    return version.ok ? ok(version.value) : noMatch(await this.#issue('version', version))
  }
}
