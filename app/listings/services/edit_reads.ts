/*
 * What ApplyEdit reads to judge an edit: the agency's people, its plan and
 * suspension flags, and how many of its listings are active. A single request
 * reads them from the database each time (`liveReads`); a stock sync's batch
 * reads each once per transaction (`BatchReads`), and counts the listings it
 * activates itself — the same rules, without a dozen round trips per row
 * (docs/performance.md, "stock sync").
 */
import type { Tx } from '#core/database/unit_of_work'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type { OperatorView, PlanView } from '#agencies/services/agency_directory'
import type { Exposure, ListingState } from '#listings/models/listing'
import type ListingStore from '#listings/stores/listing_store'
import type { ExposureCounts } from '#listings/stores/listing_store'

export interface EditReads {
  holdMembers(agencyId: number, tx: Tx, options: { wait?: boolean }): Promise<boolean>
  member(agencyId: number, email: string, client?: Tx): Promise<OperatorView | null>
  memberByIdWithPlan(
    agencyId: number,
    operatorId: number,
    client?: Tx
  ): Promise<{ member: OperatorView | null; plan: PlanView }>
  admin(agencyId: number, client?: Tx): Promise<OperatorView | null>
  holdSuspensions(
    agencyId: number,
    operatorId: number,
    tx: Tx
  ): Promise<{ agency: boolean; operator: boolean }>
  holdActivations(agencyId: number, tx: Tx): Promise<void>
  activeByExposure(agencyId: number, options: { except?: number }, tx: Tx): Promise<ExposureCounts>
  plan(agencyId: number, client?: Tx): Promise<PlanView>
}

/** The reads of one edit, straight from the database. */
export function liveReads(directory: AgencyDirectory, listings: ListingStore): EditReads {
  return {
    holdMembers: (agencyId, tx, options) => directory.holdMembers(agencyId, tx, options),
    member: (agencyId, email, client) => directory.member(agencyId, email, client),
    memberByIdWithPlan: (agencyId, operatorId, client) =>
      directory.memberByIdWithPlan(agencyId, operatorId, client),
    admin: (agencyId, client) => directory.admin(agencyId, client),
    holdSuspensions: (agencyId, operatorId, tx) =>
      directory.holdSuspensions(agencyId, operatorId, tx),
    holdActivations: (agencyId, tx) => listings.holdActivations(agencyId, tx),
    activeByExposure: (agencyId, options, tx) => listings.activeByExposure(agencyId, options, tx),
    plan: (agencyId, client) => directory.plan(agencyId, client),
  }
}

/**
 * The reads of many edits of one agency in one transaction (or, without one,
 * in one batch of probes): each read once. Locks taken in the transaction hold
 * to its end, so what they protect stays as read; the active count is the one
 * read under the activation lock plus the activations `counted` since.
 */
export class BatchReads implements EditReads {
  #memo = new Map<string, Promise<unknown>>()
  #added: ExposureCounts = { high: 0, medium: 0, low: 0 }

  constructor(private live: EditReads) {}

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let found = this.#memo.get(key) as Promise<T> | undefined
    if (!found) {
      found = read()
      this.#memo.set(key, found)
      // A failed read is not kept: the next edit reads again.
      found.catch(() => this.#memo.delete(key))
    }
    return found
  }

  /** A listing this batch created or activated: it takes its place in the count. */
  counted(state: ListingState, exposure: Exposure) {
    if (state === 'active') this.#added[exposure] += 1
  }

  holdMembers(agencyId: number, tx: Tx, options: { wait?: boolean }) {
    return this.#once(`members ${agencyId} ${options.wait !== false}`, () =>
      this.live.holdMembers(agencyId, tx, options)
    )
  }

  member(agencyId: number, email: string, client?: Tx) {
    return this.#once(`member ${agencyId} ${email.trim().toLowerCase()}`, () =>
      this.live.member(agencyId, email, client)
    )
  }

  memberByIdWithPlan(agencyId: number, operatorId: number, client?: Tx) {
    return this.#once(`member+plan ${agencyId} ${operatorId}`, () =>
      this.live.memberByIdWithPlan(agencyId, operatorId, client)
    )
  }

  admin(agencyId: number, client?: Tx) {
    return this.#once(`admin ${agencyId}`, () => this.live.admin(agencyId, client))
  }

  holdSuspensions(agencyId: number, operatorId: number, tx: Tx) {
    return this.#once(`suspensions ${agencyId} ${operatorId}`, () =>
      this.live.holdSuspensions(agencyId, operatorId, tx)
    )
  }

  holdActivations(agencyId: number, tx: Tx) {
    return this.#once(`activations ${agencyId}`, () => this.live.holdActivations(agencyId, tx))
  }

  async activeByExposure(agencyId: number, options: { except?: number }, tx: Tx) {
    // Edits of existing listings leave themselves out: not shared, read each time.
    if (options.except !== undefined) return this.live.activeByExposure(agencyId, options, tx)
    const base = await this.#once(`active ${agencyId}`, () =>
      this.live.activeByExposure(agencyId, {}, tx)
    )
    return {
      high: base.high + this.#added.high,
      medium: base.medium + this.#added.medium,
      low: base.low + this.#added.low,
    }
  }

  plan(agencyId: number, client?: Tx) {
    return this.#once(`plan ${agencyId}`, () => this.live.plan(agencyId, client))
  }
}
