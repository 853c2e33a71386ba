/*
 * What other modules may know about agencies and their operators
 * (docs/module_services.md): a read-only facade over the agencies stores,
 * every lookup index-backed. One instance per process (app/agencies/provider.ts),
 * which keeps the `forApp` memory.
 */
import { inject } from '@adonisjs/core'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Tx } from '#core/database/unit_of_work'
import { Recent } from '#core/recent'
import AgencyStore from '#agencies/stores/agency_store'
import OperatorStore, { type OperatorRow } from '#agencies/stores/operator_store'
import PlanStore, { toPlanView, type PlanRow, type PlanView } from '#agencies/stores/plan_store'
import { normalizeEmail } from './emails.js'

export type { PlanView }

export type AgencyView = {
  id: number
  adminMail: string
  tradeName: string
  suspended: boolean
  receivesOtherLeads: boolean
}

export type OperatorView = {
  id: number
  email: string
  firstName: string
  lastName: string
  phones: string[]
  suspended: boolean
  isAdmin: boolean
}

function toOperatorView(row: OperatorRow): OperatorView {
  const phones = [row.work_phone, row.whatsapp, ...(row.other_phones ?? [])].filter(
    (p): p is string => !!p
  )
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phones: [...new Set(phones)],
    suspended: row.suspended,
    isAdmin: row.is_admin === true,
  }
}

/** Other modules pass any query client (usually their transaction); the stores take it as theirs. */
const asTx = (client?: QueryClientContract) => client as Tx | undefined

@inject()
export default class AgencyDirectory {
  /**
   * `forApp` answers remembered for 5 s in this process: every agency-scoped
   * request started with this lookup (docs/decisions/performance.md, Performance: "Agency
   * lookups remembered 5 s"). A link is never removed, so a remembered answer
   * never grants access. What may be up to 5 s old in another process is a
   * display field or `receivesOtherLeads`; this process forgets at once
   * (`forget`, called by the writes that change them). Checks that must be
   * exact (suspension on activation) read under a lock instead.
   */
  #views = new Recent<AgencyView>(5_000)

  // Defaults keep `new AgencyDirectory()` of other modules working (docs/module_services.md);
  // the container injects the stores.
  constructor(
    private agencies: AgencyStore = new AgencyStore(),
    private operatorStore: OperatorStore = new OperatorStore(),
    private plans: PlanStore = new PlanStore()
  ) {}

  /** After an agency's name, suspension or an app link changed (and in tests). */
  forget() {
    this.#views.clear()
  }

  /**
   * The agency administered by `adminMail`, if it exists for the app;
   * remembered unless read on a given client (a transaction reads afresh).
   */
  async forApp(appId: number, adminMail: string, client?: QueryClientContract) {
    const email = normalizeEmail(adminMail)
    const key = `${appId} ${email}`
    const known = client ? undefined : this.#views.get(key)
    if (known) return known
    const row = await this.agencies.linkedToApp(appId, email, asTx(client))
    if (!row) return null
    const view: AgencyView = {
      id: row.id,
      adminMail: row.admin_email,
      tradeName: row.trade_name,
      suspended: row.suspended,
      receivesOtherLeads: row.receives_other_leads,
    }
    if (!client) this.#views.set(key, view)
    return view
  }

  /**
   * The agency administered by `adminMail`, whatever app it is linked to, or
   * null: for operators' commands (`ace privacy:export --agency`), never for
   * an app's request (those go through `forApp`).
   */
  async byAdminMail(adminMail: string, client?: QueryClientContract) {
    const agency = await this.agencies.byAdminEmail(normalizeEmail(adminMail), asTx(client))
    return agency ? { id: agency.id, adminMail: agency.adminEmail } : null
  }

  /**
   * The app that invited the agency (registration links it first; `agency:grant`
   * adds later links), or null: the one app that may change the agency's own
   * settings, such as its buyers' data retention (docs/design.md §25).
   */
  invitingApp(agencyId: number, client?: QueryClientContract) {
    return this.agencies.firstLinkedApp(agencyId, asTx(client))
  }

  /**
   * Taken by desasociar for its whole transaction: no one can be made
   * responsible for the agency's work while a colleague's work changes hands.
   */
  async lockHandover(agencyId: number, trx: QueryClientContract) {
    await this.operatorStore.lockHandover(agencyId, trx as Tx)
  }

  /**
   * Holds off any desasociar of the agency until `trx` ends (docs/design.md §13),
   * so a member this transaction makes responsible for something cannot be
   * detached before it commits. `wait: false` answers false at once instead
   * of waiting — for callers already holding rows a desasociar may need.
   */
  async holdMembers(agencyId: number, trx: QueryClientContract, options: { wait?: boolean } = {}) {
    return this.operatorStore.holdHandover(agencyId, trx as Tx, options.wait !== false)
  }

  /**
   * The committed `suspended` flags of an agency and one person, read FOR KEY
   * SHARE for an activation (docs/design.md §7). A suspension (SetSuspension)
   * holds the row FOR UPDATE until it has suspended their active listings, so
   * this waits for it and reads its outcome (READ COMMITTED re-reads a row it
   * waited for); a suspension that starts later waits for `trx`, and then sees
   * the listing `trx` activated. Key share does not conflict with ordinary
   * updates of these rows (no key changes) nor with other activations.
   */
  async holdSuspensions(agencyId: number, operatorId: number, trx: QueryClientContract) {
    const row = await this.agencies.suspensions(agencyId, operatorId, trx as Tx)
    // A row that is gone counts as suspended: nothing may be activated under it.
    return { agency: row.agency !== false, operator: row.operator !== false }
  }

  /** A current member of the agency by e-mail (any case). */
  async member(agencyId: number, email: string, client?: QueryClientContract) {
    const row = await this.operatorStore.member(agencyId, normalizeEmail(email), asTx(client))
    return row ? toOperatorView(row) : null
  }

  async memberById(agencyId: number, operatorId: number, client?: QueryClientContract) {
    const row = await this.operatorStore.memberById(agencyId, operatorId, asTx(client))
    return row ? toOperatorView(row) : null
  }

  async admin(agencyId: number, client?: QueryClientContract) {
    const row = await this.operatorStore.admin(agencyId, asTx(client))
    return row ? toOperatorView(row) : null
  }

  /** Current members of the agency, administrator first. */
  async members(agencyId: number, client?: QueryClientContract) {
    const rows = await this.operatorStore.members(agencyId, asTx(client))
    return rows.map(toOperatorView)
  }

  /** Operators by id (members or not: a detached person keeps their id); one query. */
  async operators(ids: number[], client?: QueryClientContract) {
    const result = new Map<number, OperatorView>()
    const unique = [...new Set(ids)]
    if (unique.length === 0) return result
    for (const row of await this.operatorStore.byIds(unique, asTx(client))) {
      result.set(row.id, toOperatorView(row))
    }
    return result
  }

  async plan(agencyId: number, client?: QueryClientContract): Promise<PlanView> {
    return this.plans.forAgency(agencyId, asTx(client))
  }

  /**
   * A current member by id and the agency's plan, in one statement: the two
   * reads an edit of a listing makes (its operator's phones, the plan's quotas).
   */
  async memberByIdWithPlan(
    agencyId: number,
    operatorId: number,
    client?: QueryClientContract
  ): Promise<{ member: OperatorView | null; plan: PlanView }> {
    // Outer joins: every column of the side that did not match is null.
    const row = await this.operatorStore.memberByIdWithPlan(agencyId, operatorId, asTx(client))
    return {
      member: row.id === null ? null : toOperatorView(row as OperatorRow),
      plan: toPlanView(row.capacity === null ? null : (row as PlanRow)),
    }
  }

  /** Apps whose link lets catalogue (and other listing-less) inquiries reach them. */
  async appsReceivingOtherLeads(agencyId: number, client?: QueryClientContract) {
    return this.agencies.appsReceivingOtherLeads(agencyId, asTx(client))
  }

  /**
   * Who may receive a catalogue inquiry from `regionId`: agencies not
   * suspended whose main branch is there, one row per app link that receives
   * other leads, by agency then app.
   */
  async otherLeadsRecipients(regionId: number, client?: QueryClientContract) {
    return this.agencies.otherLeadsRecipients(regionId, asTx(client))
  }
}
