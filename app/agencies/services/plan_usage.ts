/*
 * How much of the plan is in use: active listings per exposure level, counted
 * by the listings module (its tables are not ours to read).
 */
import { inject } from '@adonisjs/core'
import ListingDirectory from '#listings/services/listing_directory'

export type Usage = { Alta: number; Media: number; Baja: number } | null

type WithUsage = { usage(agencyId: number): Promise<{ Alta: number; Media: number; Baja: number }> }

@inject()
export default class PlanUsage {
  constructor(private listings: ListingDirectory) {}

  async execute(agencyId: number): Promise<Usage> {
    // WIRING (agencies → listings): `ListingDirectory.usage(agencyId)` → active listings per exposure.
    // Until the listings module offers it, usage is reported as unknown (null).
    const directory = this.listings as unknown as Partial<WithUsage>
    return typeof directory.usage === 'function' ? directory.usage(agencyId) : null
  }
}
