/*
 * Creates or edits a branch (sucursal). On edit, absent fields stay and null
 * clears; Region/Ciudad go through the catalogue like everywhere else.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Result } from '#core/result'
import Branch from '#agencies/models/branch'
import type { BranchInput } from '#agencies/validators/branch_validators'
import ResolvePlace from './resolve_place.js'
import { normalizeEmail } from './emails.js'
import { isWhatsapp } from './phones.js'

const seconds = (time: string) => (time.length === 5 ? `${time}:00` : time)

@inject()
export default class SaveBranch {
  constructor(private resolvePlace: ResolvePlace) {}

  async execute(
    agencyId: number,
    branchId: number | null,
    input: BranchInput
  ): Promise<Result<Branch, 'not_found' | 'invalid'>> {
    const errors: Record<string, string[]> = {}
    for (const key of ['Laborable', 'PreFestivo', 'Festivo'] as const) {
      const hours = input[key]
      if (hours && seconds(hours.Desde) >= seconds(hours.Hasta)) {
        errors[`${key}.Hasta`] = ['La hora de cierre debe ser posterior a la de apertura.']
      }
    }
    let place = null
    if (input.Region !== undefined || input.Ciudad !== undefined) {
      const resolved = await this.resolvePlace.execute({ region: input.Region, city: input.Ciudad })
      if (!resolved.ok) Object.assign(errors, resolved.errors)
      else place = resolved.value
    }
    if (Object.keys(errors).length) return fail('invalid', { errors })

    return db.transaction(async (trx) => {
      let branch: Branch
      if (branchId === null) {
        branch = new Branch().merge({
          agencyId,
          isMain: false,
          sales: true,
          workshop: false,
          parts: false,
        })
      } else {
        const found = await Branch.query({ client: trx })
          .where('agency_id', agencyId)
          .where('id', branchId)
          .forUpdate()
          .first()
        if (!found) return fail('not_found')
        branch = found
      }
      const changes: Partial<Branch> = {}
      if (input.Descripcion !== undefined) changes.description = input.Descripcion
      if (input.Email !== undefined)
        changes.email = input.Email ? normalizeEmail(input.Email) : null
      if (input.Telefono !== undefined) {
        changes.phone = input.Telefono || null
        changes.phoneIsWhatsapp = input.Telefono ? isWhatsapp(input.Telefono) : false
      }
      if (input.Region !== undefined) changes.regionId = place?.regionId ?? null
      if (input.Ciudad !== undefined) {
        changes.cityId = place?.cityId ?? null
        if (input.Region === undefined && place?.cityId) changes.regionId = place.regionId
      }
      if (input.Direccion !== undefined) changes.address = input.Direccion || null
      if (input.Comercial !== undefined) changes.sales = input.Comercial
      if (input.TallerMecanico !== undefined) changes.workshop = input.TallerMecanico
      if (input.Autopartes !== undefined) changes.parts = input.Autopartes
      const hourColumns = {
        Laborable: ['workdayFrom', 'workdayTo'],
        PreFestivo: ['preHolidayFrom', 'preHolidayTo'],
        Festivo: ['holidayFrom', 'holidayTo'],
      } as const
      for (const [key, [from, to]] of Object.entries(hourColumns) as [
        keyof typeof hourColumns,
        readonly [any, any],
      ][]) {
        const hours = input[key]
        if (hours === undefined) continue
        ;(changes as any)[from] = hours ? seconds(hours.Desde) : null
        ;(changes as any)[to] = hours ? seconds(hours.Hasta) : null
      }
      if (input.ResponsableLeadsPostVenta !== undefined) {
        changes.afterSalesLeadOwner = input.ResponsableLeadsPostVenta
          ? normalizeEmail(input.ResponsableLeadsPostVenta)
          : null
      }
      branch.useTransaction(trx).merge(changes)
      await branch.save()
      return ok(branch)
    })
  }
}
