/*
 * How much of the plan is in use: active listings per exposure level, counted
 * by the listings module (its tables are not ours to read), which provides
 * the count through agencies' hooks.
 */
import { inject } from '@adonisjs/core'
import { AgencyHooks, type Usage } from '#agencies/hooks'

export type { Usage }

@inject()
export default class PlanUsage {
  constructor(private hooks: AgencyHooks) {}

  async execute(agencyId: number): Promise<Usage> {
    const source = await this.hooks.planUsageSource()
    return source.usage(agencyId)
  }
}
