/*
 * How much of the plan is in use: active listings per exposure level, counted
 * by the listings module (its tables are not ours to read), which provides
 * the count through agencies' hooks.
 */
import { planUsageSource, type Usage } from '#agencies/hooks'

export type { Usage }

export default class PlanUsage {
  async execute(agencyId: number): Promise<Usage> {
    const source = await planUsageSource()
    return source.usage(agencyId)
  }
}
