/*
 * The agency's plan: active-listing capacity and the quota of each exposure
 * level. Plain CRUD, so Lucid; the quotas are `high`/`medium`/`low` in code
 * (the wire's Alta/Media/Baja are mapped by validators and transformers).
 */
import Plan from '#agencies/models/plan'
import type { Tx } from '#core/database/unit_of_work'

export type Quotas = { high: number; medium: number; low: number }

/** Active-listing capacity and the quota of each exposure level (best first: high, medium, low). */
export type PlanView = { capacity: number; quotas: Quotas }

/** The plan's columns as a written-out statement returns them. */
export type PlanRow = {
  capacity: number
  quota_high: number
  quota_medium: number
  quota_low: number
}

/** What a newly registered agency gets. */
export const DEFAULT_PLAN: PlanView = { capacity: 50, quotas: { high: 5, medium: 15, low: 50 } }

/** No plan row reads as a plan of nothing. */
export function toPlanView(row: PlanRow | null | undefined): PlanView {
  return {
    capacity: row?.capacity ?? 0,
    quotas: {
      high: row?.quota_high ?? 0,
      medium: row?.quota_medium ?? 0,
      low: row?.quota_low ?? 0,
    },
  }
}

function columns(plan: PlanView) {
  return {
    capacity: plan.capacity,
    quotaHigh: plan.quotas.high,
    quotaMedium: plan.quotas.medium,
    quotaLow: plan.quotas.low,
  }
}

export default class PlanStore {
  async forAgency(agencyId: number, tx?: Tx): Promise<PlanView> {
    const plan = await Plan.query({ client: tx }).where('agency_id', agencyId).first()
    return toPlanView(
      plan && {
        capacity: plan.capacity,
        quota_high: plan.quotaHigh,
        quota_medium: plan.quotaMedium,
        quota_low: plan.quotaLow,
      }
    )
  }

  /** The plan of a new agency. */
  async create(agencyId: number, plan: PlanView, tx: Tx): Promise<void> {
    await Plan.create({ agencyId, ...columns(plan) }, { client: tx })
  }

  /** Creates or replaces the agency's plan. */
  async set(agencyId: number, plan: PlanView, tx?: Tx): Promise<void> {
    await Plan.updateOrCreate({ agencyId }, columns(plan), { client: tx })
  }
}
