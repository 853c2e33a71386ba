/*
 * Operators (people) and their memberships of agencies, with the agency's
 * handover lock. Lucid for plain CRUD, the query builder for member lookups,
 * and one written-out statement where the bench showed it pays
 * (`memberByIdWithPlan`).
 */
import db from '@adonisjs/lucid/services/db'
import Operator from '#agencies/models/operator'
import Membership from '#agencies/models/membership'
import { poolQuery } from '#core/database/pool_query'
import type { Tx } from '#core/database/unit_of_work'
import type { PlanRow } from './plan_store.js'

/** An operator's columns and, where read through a membership, whether they administer it. */
export type OperatorRow = {
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

type Nullable<T> = { [K in keyof T]: T[K] | null }

/** `memberByIdWithPlan`'s one row: null member columns when not one, null plan columns when none. */
export type MemberWithPlanRow = Nullable<OperatorRow> & Nullable<PlanRow>

export type NewOperatorRow = {
  email: string
  firstName: string
  lastName: string
  whatsapp: string | null
  workPhone: string | null
  otherPhones: string[]
  regionId?: number | null
  cityId?: number | null
  address?: string | null
  passwordHash?: string | null
  createdViaApi: boolean
}

/** An operator model with its membership's administrator flag. */
export type MemberRecord = { operator: Operator; isAdmin: boolean }

export type OperatorChanges = Partial<
  Pick<
    Operator,
    'firstName' | 'lastName' | 'workPhone' | 'whatsapp' | 'address' | 'regionId' | 'cityId'
  >
>

/** Advisory-lock namespace of this module (its migration range): work changing hands in an agency. */
export const HANDOVER_LOCK = 200

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

/**
 * The member (null columns when not one) and the plan (null when none): one
 * row, always. Written out and prepared: an edit of a listing's two reads in
 * one statement, and PostgreSQL's CPU per PUT fell 1.29 → 0.70 ms with the hot
 * statements prepared (docs/decisions/performance.md, Performance: "Fewer statements per
 * write", "Hot statements are prepared").
 */
const MEMBER_WITH_PLAN_SQL = `select ${OPERATOR_COLUMNS.join(', ')},
    plans.capacity, plans.quota_high, plans.quota_medium, plans.quota_low
  from (select 1) as one
  left join plans on plans.agency_id = $1
  left join (operators join memberships
      on memberships.operator_id = operators.id and memberships.agency_id = $1)
    on operators.id = $2`

export default class OperatorStore {
  /** Current members of the agency (query builder: each caller adds its filter). */
  membersQuery(agencyId: number, tx?: Tx) {
    return (tx ?? db.connection())
      .from('operators')
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .where('memberships.agency_id', agencyId)
      .select(OPERATOR_COLUMNS)
  }

  /** A current member by e-mail (normalized). */
  async member(agencyId: number, email: string, tx?: Tx): Promise<OperatorRow | undefined> {
    return this.membersQuery(agencyId, tx).where('operators.email', email).first()
  }

  async memberById(agencyId: number, id: number, tx?: Tx): Promise<OperatorRow | undefined> {
    return this.membersQuery(agencyId, tx).where('operators.id', id).first()
  }

  async admin(agencyId: number, tx?: Tx): Promise<OperatorRow | undefined> {
    return this.membersQuery(agencyId, tx).where('memberships.is_admin', true).first()
  }

  /** Current members, administrator first. */
  async members(agencyId: number, tx?: Tx): Promise<OperatorRow[]> {
    return this.membersQuery(agencyId, tx)
      .orderBy('memberships.is_admin', 'desc')
      .orderBy('operators.id')
  }

  /** Operators by id, members or not (a detached person keeps their id); one query. */
  async byIds(ids: number[], tx?: Tx): Promise<OperatorRow[]> {
    return (tx ?? db.connection())
      .from('operators')
      .leftJoin('memberships', 'memberships.operator_id', 'operators.id')
      .whereIn('operators.id', ids)
      .select(OPERATOR_COLUMNS)
  }

  /** A member by id and the agency's plan in one prepared statement (MEMBER_WITH_PLAN_SQL). */
  async memberByIdWithPlan(agencyId: number, operatorId: number, tx?: Tx) {
    const [row] = await poolQuery<MemberWithPlanRow>(MEMBER_WITH_PLAN_SQL, [agencyId, operatorId], {
      prepare: true,
      client: tx,
    })
    return row
  }

  /** The exclusive handover lock of the agency, held until `tx` ends (desasociar). */
  async lockHandover(agencyId: number, tx: Tx): Promise<void> {
    await tx.rawQuery('select pg_advisory_xact_lock(?, ?)', [HANDOVER_LOCK, agencyId])
  }

  /** The shared handover lock; `wait: false` answers false at once when a detach holds it. */
  async holdHandover(agencyId: number, tx: Tx, wait: boolean): Promise<boolean> {
    if (!wait) {
      const result = await tx.rawQuery('select pg_try_advisory_xact_lock_shared(?, ?) as held', [
        HANDOVER_LOCK,
        agencyId,
      ])
      return result.rows[0].held === true
    }
    await tx.rawQuery('select pg_advisory_xact_lock_shared(?, ?)', [HANDOVER_LOCK, agencyId])
    return true
  }

  /** Locks every membership of the agency until `tx` ends. */
  async lockMemberships(agencyId: number, tx: Tx): Promise<void> {
    await Membership.query({ client: tx }).where('agency_id', agencyId).forUpdate().select('id')
  }

  async removeMember(agencyId: number, operatorId: number, tx: Tx): Promise<void> {
    await Membership.query({ client: tx })
      .where('agency_id', agencyId)
      .where('operator_id', operatorId)
      .delete()
  }

  async addMember(agencyId: number, operatorId: number, isAdmin: boolean, tx: Tx): Promise<void> {
    await Membership.create({ agencyId, operatorId, isAdmin }, { client: tx })
  }

  /** The agency the person belongs to, if any (one at a time). */
  async agencyOf(operatorId: number, tx?: Tx): Promise<number | null> {
    const membership = await Membership.query({ client: tx })
      .where('operator_id', operatorId)
      .first()
    return membership?.agencyId ?? null
  }

  /** By e-mail (normalized); `forUpdate` locks the row in `tx`. */
  async byEmail(email: string, tx?: Tx, options: { forUpdate?: boolean } = {}) {
    const query = Operator.query({ client: tx }).where('email', email)
    if (options.forUpdate) query.forUpdate()
    return query.first()
  }

  async create(row: NewOperatorRow, tx: Tx): Promise<Operator> {
    return Operator.create({ ...row, suspended: false }, { client: tx })
  }

  async setSuspended(operator: Operator, suspended: boolean, tx: Tx): Promise<void> {
    await operator.useTransaction(tx).merge({ suspended }).save()
  }

  /**
   * A member as a model with its administrator flag: by e-mail (normalized),
   * or the administrator when none; `forUpdate` locks the operator row.
   */
  async memberRecord(
    agencyId: number,
    email: string | undefined,
    tx?: Tx,
    options: { forUpdate?: boolean } = {}
  ): Promise<MemberRecord | null> {
    const query = Operator.query({ client: tx })
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .where('memberships.agency_id', agencyId)
      .select('operators.*', 'memberships.is_admin')
    if (options.forUpdate) query.forUpdate('operators')
    if (email) query.where('operators.email', email)
    else query.where('memberships.is_admin', true)
    const operator = await query.first()
    return operator ? { operator, isAdmin: operator.$extras.is_admin === true } : null
  }

  /** Members as models, administrator first; `email` (normalized) narrows to one. */
  async memberRecords(agencyId: number, email?: string, tx?: Tx): Promise<MemberRecord[]> {
    const query = Operator.query({ client: tx })
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .where('memberships.agency_id', agencyId)
      .select('operators.*', 'memberships.is_admin')
      .orderBy('memberships.is_admin', 'desc')
      .orderBy('operators.id')
    if (email) query.where('operators.email', email)
    const rows = await query
    return rows.map((operator) => ({ operator, isAdmin: operator.$extras.is_admin === true }))
  }

  /** The person (e-mail normalized) if they belong to an agency linked to the app. */
  async memberForApp(appId: number, email: string, tx?: Tx) {
    const operator = await Operator.query({ client: tx })
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .join('agencies', 'agencies.id', 'memberships.agency_id')
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('app_agencies.app_id', appId)
      .where('operators.email', email)
      .select(
        'operators.*',
        'memberships.is_admin',
        'agencies.admin_email as agency_email',
        'agencies.id as agency_id'
      )
      .first()
    if (!operator) return null
    return {
      operator,
      isAdmin: operator.$extras.is_admin === true,
      agencyEmail: operator.$extras.agency_email as string,
      agencyId: operator.$extras.agency_id as number,
    }
  }

  async update(operator: Operator, changes: OperatorChanges, tx: Tx): Promise<void> {
    await operator.useTransaction(tx).merge(changes).save()
  }
}
