/*
 * Reads of brands and their models for the catalogue endpoints and the
 * buyers' model pages (SQL in VehicleStore).
 */
import { inject } from '@adonisjs/core'
import type { Result } from '#core/result'
import VehicleStore, {
  type BrandFilter,
  type BrandRef,
  type ModelFilter,
  type ModelRef,
} from '#catalog/stores/vehicle_store'
import { listedUnder } from './listed_under.js'

export type { BrandFilter, ModelFilter }

@inject()
export default class BrandDirectory {
  constructor(private store: VehicleStore) {}

  brands(filter: BrandFilter): Promise<BrandRef[]> {
    return this.store.brands(filter)
  }

  brand(id: number): Promise<BrandRef | null> {
    return this.store.brand(id)
  }

  /** The brand's models; a brand that does not exist fails (asked only when no model came back). */
  async listModels(filter: ModelFilter): Promise<Result<ModelRef[], 'unknown_brand'>> {
    const models = await this.store.models(filter)
    return listedUnder(models, () => this.store.brandExists(filter.brandId), 'unknown_brand')
  }

  model(id: number): Promise<ModelRef | null> {
    return this.store.model(id)
  }
}
