/*
 * PUT /v3/operadores/{adminmail}: edits a member's configured personal data.
 * Absent fields stay; null (or '') clears. An administrator who registered
 * outside the API manages their own data (docs/spec.md §2.9).
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Fail, type Ok } from '#core/result'
import Operator from '#agencies/models/operator'
import type { OperatorEdit } from '#agencies/validators/operator_validators'
import ResolvePlace, { type PlaceFailure } from './resolve_place.js'
import { normalizeEmail } from './emails.js'

export type EditedOperator = { operator: Operator; isAdmin: boolean }
export type EditFailure = Fail<'not_member'> | Fail<'admin_not_editable'> | PlaceFailure

@inject()
export default class EditOperator {
  constructor(private resolvePlace: ResolvePlace) {}

  async execute(
    agencyId: number,
    target: string | undefined,
    input: OperatorEdit
  ): Promise<Ok<EditedOperator> | EditFailure> {
    // Places are resolved before the transaction: a catalogue read inside it
    // would hold a second pool connection per request.
    let place = null
    if (input.Region !== undefined || input.Ciudad !== undefined) {
      const resolved = await this.resolvePlace.execute({ region: input.Region, city: input.Ciudad })
      if (!resolved.ok) return resolved
      place = resolved.value
    }
    return db.transaction(async (trx) => {
      const query = Operator.query({ client: trx })
        .join('memberships', 'memberships.operator_id', 'operators.id')
        .where('memberships.agency_id', agencyId)
        .select('operators.*', 'memberships.is_admin')
        .forUpdate('operators')
      if (target) query.where('operators.email', normalizeEmail(target))
      else query.where('memberships.is_admin', true)
      const operator = await query.first()
      if (!operator) return fail('not_member')
      const isAdmin = operator.$extras.is_admin === true
      if (isAdmin && !operator.createdViaApi) return fail('admin_not_editable')

      const changes: Partial<Operator> = {}
      if (input.Nombre !== undefined) changes.firstName = input.Nombre ?? ''
      if (input.Apellido !== undefined) changes.lastName = input.Apellido ?? ''
      if (input.TelefonoLaboral !== undefined) changes.workPhone = input.TelefonoLaboral || null
      if (input.WhatsApp !== undefined) changes.whatsapp = input.WhatsApp || null
      if (input.Direccion !== undefined) changes.address = input.Direccion || null
      if (place) {
        if (input.Region !== undefined) changes.regionId = place.regionId
        if (input.Ciudad !== undefined) changes.cityId = place.cityId
        // A city alone implies its region.
        if (input.Region === undefined && place.cityId) changes.regionId = place.regionId
      }
      operator.useTransaction(trx).merge(changes)
      await operator.save()
      return ok({ operator, isAdmin })
    })
  }
}
