/*
 * What other modules may know about agencies and their operators
 * (docs/module_services.md). Read-only; every lookup is index-backed.
 */
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { poolQuery } from '#core/database/pool_query'
import { Recent } from '#core/recent'
import { normalizeEmail } from './emails.js'

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

/** Advisory-lock namespace of this module (its migration range): work changing hands in an agency. */
const HANDOVER_LOCK = 200

/** Active-listing capacity and the quota of each exposure level (best first: high, medium, low). */
export type PlanView = { capacity: number; quotas: { high: number; medium: number; low: number } }

type OperatorRow = {
  id: number
  email: string
  first_name: string
  last_name: string
  work_phone: string | null
  whatsapp: string | null
  other_phones: string[]
  suspended: boolean
  is_admin: boolean | null
}

const OPERATOR_COLUMNS = [
  'operators.id',
  'operators.email',
  'operators.first_name',
  'operators.last_name',
  'operators.work_phone',
  'operators.whatsapp',
  'operators.other_phones',
  'operators.suspended',
  'memberships.is_admin',
]

/** The member (null columns when not one) and the plan (null when none): one row, always. */
const MEMBER_WITH_PLAN_SQL = `select ${OPERATOR_COLUMNS.join(', ')},
    plans.capacity, plans.quota_high, plans.quota_medium, plans.quota_low
  from (select 1) as one
  left join plans on plans.agency_id = $1
  left join (operators join memberships
      on memberships.operator_id = operators.id and memberships.agency_id = $1)
    on operators.id = $2`

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

type Nullable<T> = { [K in keyof T]: T[K] | null }
type PlanRow = { capacity: number; quota_high: number; quota_medium: number; quota_low: number }

function toPlanView(row: PlanRow | null | undefined): PlanView {
  return {
    capacity: row?.capacity ?? 0,
    quotas: {
      high: row?.quota_high ?? 0,
      medium: row?.quota_medium ?? 0,
      low: row?.quota_low ?? 0,
    },
  }
}

/**
 * `forApp` answers remembered for 5 s in each process: every agency-scoped
 * request starts with this lookup, and a link is never removed, so a
 * remembered answer never grants access. What may be up to 5 s old in another
 * process is a display field or `receivesOtherLeads`; this process forgets at
 * once (`forgetAgencyViews`, called by the writes that change them). Checks
 * that must be exact (suspension on activation) read under a lock instead.
 */
const rememberedViews = new Recent<AgencyView>(5_000)

/** After an agency's name, suspension or an app link changed (and in tests). */
export function forgetAgencyViews() {
  rememberedViews.clear()
}

export default class AgencyDirectory {
  /**
   * The agency administered by `adminMail`, if it exists for the app;
   * remembered unless read on a given client (a transaction reads afresh).
   */
  async forApp(appId: number, adminMail: string, client?: QueryClientContract) {
    const email = normalizeEmail(adminMail)
    const key = `${appId} ${email}`
    const known = client ? undefined : rememberedViews.get(key)
    if (known) return known
    const row = await (client ?? db.connection())
      .from('agencies')
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('app_agencies.app_id', appId)
      .where('agencies.admin_email', email)
      .select('agencies.id', 'agencies.admin_email', 'agencies.trade_name', 'agencies.suspended')
      .select('app_agencies.receives_other_leads')
      .first()
    if (!row) return null
    const view: AgencyView = {
      id: row.id,
      adminMail: row.admin_email,
      tradeName: row.trade_name,
      suspended: row.suspended,
      receivesOtherLeads: row.receives_other_leads,
    }
    if (!client) rememberedViews.set(key, view)
    return view
  }

  /**
   * Taken by desasociar for its whole transaction: no one can be made
   * responsible for the agency's work while a colleague's work changes hands.
   */
  async lockHandover(agencyId: number, trx: QueryClientContract) {
    await trx.rawQuery('select pg_advisory_xact_lock(?, ?)', [HANDOVER_LOCK, agencyId])
  }

  /**
   * Holds off any desasociar of the agency until `trx` ends (docs/design.md §13),
   * so a member this transaction makes responsible for something cannot be
   * detached before it commits. `wait: false` answers false at once instead
   * of waiting — for callers already holding rows a desasociar may need.
   */
  async holdMembers(agencyId: number, trx: QueryClientContract, options: { wait?: boolean } = {}) {
    if (options.wait === false) {
      const result = await trx.rawQuery('select pg_try_advisory_xact_lock_shared(?, ?) as held', [
        HANDOVER_LOCK,
        agencyId,
      ])
      return result.rows[0].held === true
    }
    await trx.rawQuery('select pg_advisory_xact_lock_shared(?, ?)', [HANDOVER_LOCK, agencyId])
    return true
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
    const result = await trx.rawQuery(
      `select (select suspended from agencies where id = ? for key share) as agency,
              (select suspended from operators where id = ? for key share) as operator`,
      [agencyId, operatorId]
    )
    const row: { agency: boolean | null; operator: boolean | null } = result.rows[0]
    // A row that is gone counts as suspended: nothing may be activated under it.
    return { agency: row.agency !== false, operator: row.operator !== false }
  }

  /** A current member of the agency by e-mail (any case). */
  async member(agencyId: number, email: string, client: QueryClientContract = db.connection()) {
    const row = await this.#members(client, agencyId)
      .where('operators.email', normalizeEmail(email))
      .first()
    return row ? toOperatorView(row) : null
  }

  async memberById(
    agencyId: number,
    operatorId: number,
    client: QueryClientContract = db.connection()
  ) {
    const row = await this.#members(client, agencyId).where('operators.id', operatorId).first()
    return row ? toOperatorView(row) : null
  }

  async admin(agencyId: number, client: QueryClientContract = db.connection()) {
    const row = await this.#members(client, agencyId).where('memberships.is_admin', true).first()
    return row ? toOperatorView(row) : null
  }

  /** Current members of the agency, administrator first. */
  async members(agencyId: number, client: QueryClientContract = db.connection()) {
    const rows = await this.#members(client, agencyId)
      .orderBy('memberships.is_admin', 'desc')
      .orderBy('operators.id')
    return rows.map(toOperatorView)
  }

  /** Operators by id (members or not: a detached person keeps their id); one query. */
  async operators(ids: number[], client: QueryClientContract = db.connection()) {
    const result = new Map<number, OperatorView>()
    const unique = [...new Set(ids)]
    if (unique.length === 0) return result
    const rows: OperatorRow[] = await client
      .from('operators')
      .leftJoin('memberships', 'memberships.operator_id', 'operators.id')
      .whereIn('operators.id', unique)
      .select(OPERATOR_COLUMNS)
    for (const row of rows) result.set(row.id, toOperatorView(row))
    return result
  }

  async plan(agencyId: number, client: QueryClientContract = db.connection()): Promise<PlanView> {
    return toPlanView(await client.from('plans').where('agency_id', agencyId).first())
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
    const [row] = await poolQuery<OperatorRow & Nullable<PlanRow>>(
      MEMBER_WITH_PLAN_SQL,
      [agencyId, operatorId],
      { prepare: true, client }
    )
    return {
      member: row.id === null ? null : toOperatorView(row),
      plan: toPlanView(row.capacity === null ? null : (row as PlanRow)),
    }
  }

  /** Apps whose link lets catalogue (and other listing-less) inquiries reach them. */
  async appsReceivingOtherLeads(agencyId: number, client: QueryClientContract = db.connection()) {
    const rows = await client
      .from('app_agencies')
      .where('agency_id', agencyId)
      .where('receives_other_leads', true)
      .select('app_id')
    return rows.map((row) => row.app_id as number)
  }

  /**
   * Who may receive a catalogue inquiry from `regionId`: agencies not
   * suspended whose main branch is there, one row per app link that receives
   * other leads, by agency then app.
   */
  async otherLeadsRecipients(regionId: number, client: QueryClientContract = db.connection()) {
    const rows = await client
      .from('agencies')
      .join('branches', (join) =>
        join.on('branches.agency_id', 'agencies.id').andOnVal('branches.is_main', true)
      )
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('branches.region_id', regionId)
      .where('app_agencies.receives_other_leads', true)
      .where('agencies.suspended', false)
      .select('agencies.id as agency_id', 'app_agencies.app_id', 'agencies.trade_name')
      .orderBy('agencies.id')
      .orderBy('app_agencies.app_id')
    return rows.map((row) => ({
      agencyId: row.agency_id as number,
      appId: row.app_id as number,
      tradeName: row.trade_name as string,
    }))
  }

  #members(client: QueryClientContract, agencyId: number) {
    return client
      .from('operators')
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .where('memberships.agency_id', agencyId)
      .select(OPERATOR_COLUMNS)
  }
}
