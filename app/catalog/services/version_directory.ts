/*
 * Versions of one model (docs/spec.md §4.7): without a year only those on the
 * new-vehicle market; with one, every version within ±YEAR_WINDOW model
 * years, optionally filtered by part of the name (SQL in VehicleStore).
 */
import { inject } from '@adonisjs/core'
import type { Result } from '#core/result'
import VehicleStore, { type VersionFilter, type VersionRef } from '#catalog/stores/vehicle_store'
import { listedUnder } from './listed_under.js'

export type { VersionFilter }

@inject()
export default class VersionDirectory {
  constructor(private store: VehicleStore) {}

  versions(filter: VersionFilter): Promise<VersionRef[]> {
    return this.store.versions(filter)
  }

  /** The model's versions; a model that does not exist fails (asked only when no version came back). */
  async listVersions(filter: VersionFilter): Promise<Result<VersionRef[], 'unknown_model'>> {
    const versions = await this.store.versions(filter)
    return listedUnder(versions, () => this.store.modelExists(filter.modelId), 'unknown_model')
  }

  version(id: number): Promise<VersionRef | null> {
    return this.store.version(id)
  }
}
