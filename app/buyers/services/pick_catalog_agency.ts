/*
 * Which agency gets a catalogue inquiry from a model page: one whose main
 * branch is in the buyer's region and that receives other leads through an
 * app link; among those, the one that got a catalogue inquiry from these
 * pages least recently (never first), then the lowest agency id — a fair
 * rotation that needs no state outside this module's own table.
 */
import { inject } from '@adonisjs/core'
import AgencyDirectory from '#agencies/services/agency_directory'
import { fail, ok, type Result } from '#core/result'
import CatalogAssignmentStore from '#buyers/stores/catalog_assignment_store'

export type CatalogRecipient = { agencyId: number; appId: number; tradeName: string }

@inject()
export default class PickCatalogAgency {
  constructor(
    private agencies: AgencyDirectory,
    private assignments: CatalogAssignmentStore
  ) {}

  async execute(regionId: number): Promise<Result<CatalogRecipient, 'none_in_region'>> {
    const candidates: CatalogRecipient[] = await this.agencies.otherLeadsRecipients(regionId)
    if (candidates.length === 0) return fail('none_in_region')
    const ids = [...new Set(candidates.map((candidate) => candidate.agencyId))]
    const last = await this.assignments.lastAssigned(ids)
    const [chosen] = [...candidates].sort(
      (a, b) =>
        (last.get(a.agencyId) ?? 0) - (last.get(b.agencyId) ?? 0) ||
        a.agencyId - b.agencyId ||
        a.appId - b.appId
    )
    return ok(chosen)
  }

  /** Records that `agencyId` got one (after the intake committed it). */
  async assigned(agencyId: number) {
    await this.assignments.recordAssigned(agencyId)
  }
}
