/*
 * Agencies and their links to apps. Lucid for plain CRUD; the lookups other
 * modules make on every request (`linkedToApp`, `suspensions`) keep the
 * statements AgencyDirectory always made (docs/decisions/performance.md, Performance).
 */
import db from '@adonisjs/lucid/services/db'
import Agency from '#agencies/models/agency'
import AppAgency from '#agencies/models/app_agency'
import type { Tx } from '#core/database/unit_of_work'

/** An agency as one app sees it (`linkedToApp`). */
export type AgencyLinkRow = {
  id: number
  admin_email: string
  trade_name: string
  suspended: boolean
  receives_other_leads: boolean
}

export type NewAgencyRow = { adminEmail: string; tradeName: string }

export type OtherLeadsRecipient = { agencyId: number; appId: number; tradeName: string }

export default class AgencyStore {
  /**
   * The agency administered by `email` if linked to the app: one statement, the
   * first of every agency-scoped request (remembered 5 s by AgencyDirectory.forApp).
   */
  async linkedToApp(appId: number, email: string, tx?: Tx): Promise<AgencyLinkRow | undefined> {
    return (tx ?? db.connection())
      .from('agencies')
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('app_agencies.app_id', appId)
      .where('agencies.admin_email', email)
      .select('agencies.id', 'agencies.admin_email', 'agencies.trade_name', 'agencies.suspended')
      .select('app_agencies.receives_other_leads')
      .first()
  }

  /**
   * The committed `suspended` flags of an agency and one person, read FOR KEY
   * SHARE (see AgencyDirectory.holdSuspensions); null where the row is gone.
   */
  async suspensions(agencyId: number, operatorId: number, tx: Tx) {
    const result = await tx.rawQuery(
      `select (select suspended from agencies where id = ? for key share) as agency,
              (select suspended from operators where id = ? for key share) as operator`,
      [agencyId, operatorId]
    )
    return result.rows[0] as { agency: boolean | null; operator: boolean | null }
  }

  async find(id: number, tx?: Tx): Promise<Agency | null> {
    return Agency.find(id, { client: tx })
  }

  /** By administrator e-mail (normalized); `forUpdate` locks the row in `tx`. */
  async byAdminEmail(
    email: string,
    tx?: Tx,
    options: { forUpdate?: boolean } = {}
  ): Promise<Agency | null> {
    const query = Agency.query({ client: tx }).where('admin_email', email)
    if (options.forUpdate) query.forUpdate()
    return query.first()
  }

  /** The agency administered by `email` if linked to the app, as a model (its own GET). */
  async registeredForApp(appId: number, email: string, tx?: Tx): Promise<Agency | null> {
    return Agency.query({ client: tx })
      .where('admin_email', email)
      .whereExists((query) =>
        query
          .from('app_agencies')
          .whereColumn('app_agencies.agency_id', 'agencies.id')
          .where('app_agencies.app_id', appId)
      )
      .first()
  }

  /** The app's agencies, by commercial name. */
  async listForApp(appId: number, tx?: Tx): Promise<Agency[]> {
    return Agency.query({ client: tx })
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('app_agencies.app_id', appId)
      .select('agencies.*')
      .orderBy('agencies.trade_name')
      .orderBy('agencies.id')
  }

  async create(row: NewAgencyRow, tx: Tx): Promise<Agency> {
    return Agency.create({ ...row, suspended: false }, { client: tx })
  }

  async rename(id: number, tradeName: string, tx?: Tx): Promise<Agency> {
    const agency = await Agency.findOrFail(id, { client: tx })
    await agency.merge({ tradeName }).save()
    return agency
  }

  async setSuspended(agency: Agency, suspended: boolean, tx: Tx): Promise<void> {
    await agency.useTransaction(tx).merge({ suspended }).save()
  }

  /** The first link of a new agency. */
  async addLink(appId: number, agencyId: number, receivesOtherLeads: boolean, tx: Tx) {
    await AppAgency.create({ appId, agencyId, receivesOtherLeads }, { client: tx })
  }

  /** Links the agency to the app, or updates the link's flag. */
  async link(appId: number, agencyId: number, receivesOtherLeads: boolean, tx: Tx) {
    return AppAgency.updateOrCreate({ appId, agencyId }, { receivesOtherLeads }, { client: tx })
  }

  /** Whether the app exists (`agency:grant` names it by id). */
  async appExists(appId: number, tx?: Tx): Promise<boolean> {
    const row = await (tx ?? db.connection()).from('apps').where('id', appId).select('id').first()
    return Boolean(row)
  }

  /** Whether an e-mail (normalized) already belongs to an operator or an agency of the service. */
  async emailKnown(email: string, tx?: Tx): Promise<boolean> {
    const client = tx ?? db.connection()
    const [operator, agency] = await Promise.all([
      client.from('operators').where('email', email).select('id').first(),
      client.from('agencies').where('admin_email', email).select('id').first(),
    ])
    return Boolean(operator || agency)
  }

  /** The app of the agency's first link: the one that invited (or created) it; null when unlinked. */
  async firstLinkedApp(agencyId: number, tx?: Tx): Promise<number | null> {
    const row = await (tx ?? db.connection())
      .from('app_agencies')
      .where('agency_id', agencyId)
      .orderBy('id')
      .select('app_id')
      .first()
    return row ? (row.app_id as number) : null
  }

  /** Apps whose link lets catalogue (and other listing-less) inquiries reach them. */
  async appsReceivingOtherLeads(agencyId: number, tx?: Tx): Promise<number[]> {
    const rows = await (tx ?? db.connection())
      .from('app_agencies')
      .where('agency_id', agencyId)
      .where('receives_other_leads', true)
      .select('app_id')
    return rows.map((row) => row.app_id as number)
  }

  /**
   * Agencies not suspended whose main branch is in the region, one row per app
   * link that receives other leads, by agency then app.
   */
  async otherLeadsRecipients(regionId: number, tx?: Tx): Promise<OtherLeadsRecipient[]> {
    const rows = await (tx ?? db.connection())
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
}
