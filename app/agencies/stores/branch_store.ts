/*
 * Branches (sucursales) of an agency: plain CRUD, so Lucid.
 */
import Branch from '#agencies/models/branch'
import type { Tx } from '#core/database/unit_of_work'

/** The columns a save may write (a new branch's flags included). */
export type BranchChanges = Partial<
  Pick<
    Branch,
    | 'isMain'
    | 'description'
    | 'email'
    | 'phone'
    | 'phoneIsWhatsapp'
    | 'regionId'
    | 'cityId'
    | 'address'
    | 'sales'
    | 'workshop'
    | 'parts'
    | 'workdayFrom'
    | 'workdayTo'
    | 'preHolidayFrom'
    | 'preHolidayTo'
    | 'holidayFrom'
    | 'holidayTo'
    | 'afterSalesLeadOwner'
  >
>

export default class BranchStore {
  /** The agency's branches, main first. */
  async list(agencyId: number, tx?: Tx): Promise<Branch[]> {
    return Branch.query({ client: tx })
      .where('agency_id', agencyId)
      .orderBy('is_main', 'desc')
      .orderBy('id')
  }

  /** One branch of the agency; `forUpdate` locks it in `tx`. */
  async find(
    agencyId: number,
    id: number,
    tx?: Tx,
    options: { forUpdate?: boolean } = {}
  ): Promise<Branch | null> {
    const query = Branch.query({ client: tx }).where('agency_id', agencyId).where('id', id)
    if (options.forUpdate) query.forUpdate()
    return query.first()
  }

  async create(agencyId: number, row: BranchChanges, tx: Tx): Promise<Branch> {
    return Branch.create({ ...row, agencyId }, { client: tx })
  }

  async update(branch: Branch, changes: BranchChanges, tx: Tx): Promise<Branch> {
    await branch.useTransaction(tx).merge(changes).save()
    return branch
  }
}
