/*
 * PUT /v3/operadores/{adminmail}: edits a member's configured personal data.
 * Absent fields stay; null (or '') clears. An administrator who registered
 * outside the API manages their own data (docs/spec.md §2.9).
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import { fail, ok, type Fail, type Ok } from '#core/result'
import OperatorStore, {
  type MemberRecord,
  type OperatorChanges,
} from '#agencies/stores/operator_store'
import ResolvePlace, { type Place, type PlaceFailure } from './resolve_place.js'
import { normalizeEmail } from './emails.js'

/** What an edit may change (undefined: unchanged; null or '': cleared); places as callers name them. */
export type OperatorEdit = {
  firstName?: string | null
  lastName?: string | null
  workPhone?: string | null
  whatsapp?: string | null
  address?: string | null
  region?: string | null
  city?: string | null
}

export type EditedOperator = MemberRecord
export type EditFailure = Fail<'not_member'> | Fail<'admin_not_editable'> | PlaceFailure

@inject()
export default class EditOperator {
  constructor(
    private operators: OperatorStore,
    private resolvePlace: ResolvePlace,
    private unitOfWork: UnitOfWork
  ) {}

  /** `target`: the member's e-mail; absent, the administrator. */
  async execute(
    agencyId: number,
    target: string | undefined,
    input: OperatorEdit
  ): Promise<Ok<EditedOperator> | EditFailure> {
    // Places are resolved before the transaction: a catalogue read inside it
    // would hold a second pool connection per request.
    let place: Place | null = null
    if (input.region !== undefined || input.city !== undefined) {
      const resolved = await this.resolvePlace.execute({ region: input.region, city: input.city })
      if (!resolved.ok) return resolved
      place = resolved.value
    }
    return this.unitOfWork.run(async (tx) => {
      const email = target ? normalizeEmail(target) : undefined
      const member = await this.operators.memberRecord(agencyId, email, tx, { forUpdate: true })
      if (!member) return fail('not_member')
      if (member.isAdmin && !member.operator.createdViaApi) return fail('admin_not_editable')
      await this.operators.update(member.operator, changesOf(input, place), tx)
      return ok(member)
    })
  }
}

function changesOf(input: OperatorEdit, place: Place | null): OperatorChanges {
  const changes: OperatorChanges = {}
  if (input.firstName !== undefined) changes.firstName = input.firstName ?? ''
  if (input.lastName !== undefined) changes.lastName = input.lastName ?? ''
  if (input.workPhone !== undefined) changes.workPhone = input.workPhone || null
  if (input.whatsapp !== undefined) changes.whatsapp = input.whatsapp || null
  if (input.address !== undefined) changes.address = input.address || null
  if (place) {
    if (input.region !== undefined) changes.regionId = place.regionId
    if (input.city !== undefined) changes.cityId = place.cityId
    // A city alone implies its region.
    if (input.region === undefined && place.cityId) changes.regionId = place.regionId
  }
  return changes
}
