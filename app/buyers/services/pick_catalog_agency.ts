/*
 * Which agency gets a catalogue inquiry from a model page: one whose main
 * branch is in the buyer's region and that receives other leads through an
 * app link; among those, the one that got a catalogue inquiry from these
 * pages least recently (never first), then the lowest agency id — a fair
 * rotation that needs no state outside this module's own table. Concurrent
 * picks in a region take turns (issue 24, "catalogue inquiries racing for the
 * same agency's lead assignment"): the pick claims its turn under the region's
 * lock, so the next one sees it, as it would one after another.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { UnitOfWork } from '#core/database/unit_of_work'
import AgencyDirectory from '#agencies/services/agency_directory'
import { fail, ok, type Result } from '#core/result'

/** Advisory lock namespace of the buyers module (0500), keyed by region. */
const CATALOG_TURN_LOCK = 500

export type CatalogRecipient = { agencyId: number; appId: number; tradeName: string }

@inject()
export default class PickCatalogAgency {
  constructor(
    private agencies: AgencyDirectory,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(regionId: number): Promise<Result<CatalogRecipient, 'none_in_region'>> {
    const candidates: CatalogRecipient[] = await this.agencies.otherLeadsRecipients(regionId)
    if (candidates.length === 0) return fail('none_in_region')
    const ids = [...new Set(candidates.map((candidate) => candidate.agencyId))]
    const chosen = await this.unitOfWork.run(async (trx) => {
      await trx.rawQuery('select pg_advisory_xact_lock(?, ?)', [CATALOG_TURN_LOCK, regionId])
      const rows: { agency_id: number; last_assigned_at: Date }[] = await trx
        .from('catalog_lead_assignments')
        .whereIn('agency_id', ids)
        .select('agency_id', 'last_assigned_at')
      const last = new Map(
        rows.map((row) => [row.agency_id, new Date(row.last_assigned_at).getTime()])
      )
      const [first] = [...candidates].sort(
        (a, b) =>
          (last.get(a.agencyId) ?? 0) - (last.get(b.agencyId) ?? 0) ||
          a.agencyId - b.agencyId ||
          a.appId - b.appId
      )
      // clock_timestamp, not now(): turns claimed in one instant still follow each other.
      await trx.rawQuery(
        `insert into catalog_lead_assignments (agency_id, assigned, last_assigned_at)
         values (?, 0, clock_timestamp())
         on conflict (agency_id) do update set last_assigned_at = clock_timestamp()`,
        [first.agencyId]
      )
      return first
    })
    return ok(chosen)
  }

  /** Counts that `agencyId` got one (after the intake committed it; its turn was claimed by the pick). */
  async assigned(agencyId: number) {
    await db.from('catalog_lead_assignments').where('agency_id', agencyId).increment('assigned', 1)
  }
}
