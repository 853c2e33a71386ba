/*
 * How much of the plan is in use: active listings per exposure level, counted
 * by the listings module (its tables are not ours to read).
 */
import { inject } from '@adonisjs/core'
import ListingDirectory from '#listings/services/listing_directory'

export type Usage = { high: number; medium: number; low: number }

@inject()
export default class PlanUsage {
  constructor(private listings: ListingDirectory) {}

  execute(agencyId: number): Promise<Usage> {
    return this.listings.usage(agencyId)
  }
}
