/*
 * Creates or edits a branch (sucursal). On edit, absent fields stay and null
 * clears; Region/Ciudad go through the catalogue like everywhere else.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Fail, type Ok } from '#core/result'
import Branch from '#agencies/models/branch'
import type { BranchInput } from '#agencies/validators/branch_validators'
import ResolvePlace, { type UnknownPlace } from './resolve_place.js'
import { normalizeEmail } from './emails.js'
import { isWhatsapp } from './phones.js'

const seconds = (time: string) => (time.length === 5 ? `${time}:00` : time)

/** The opening hours of a branch: weekdays, the eve of holidays, holidays. */
export const SCHEDULES = ['weekdays', 'preHolidays', 'holidays'] as const
export type Schedule = (typeof SCHEDULES)[number]

export type InvalidBranch = { closesBeforeOpening: Schedule[]; place?: UnknownPlace }
export type BranchFailure = Fail<'branch_not_found'> | Fail<'invalid_branch', InvalidBranch>

const SCHEDULE_INPUT = {
  weekdays: 'Laborable',
  preHolidays: 'PreFestivo',
  holidays: 'Festivo',
} as const

@inject()
export default class SaveBranch {
  constructor(private resolvePlace: ResolvePlace) {}

  async execute(
    agencyId: number,
    branchId: number | null,
    input: BranchInput
  ): Promise<Ok<Branch> | BranchFailure> {
    const invalid: InvalidBranch = {
      closesBeforeOpening: SCHEDULES.filter((schedule) => {
        const hours = input[SCHEDULE_INPUT[schedule]]
        return hours && seconds(hours.Desde) >= seconds(hours.Hasta)
      }),
    }
    let place = null
    if (input.Region !== undefined || input.Ciudad !== undefined) {
      const resolved = await this.resolvePlace.execute({ region: input.Region, city: input.Ciudad })
      if (!resolved.ok) invalid.place = resolved.details
      else place = resolved.value
    }
    if (invalid.closesBeforeOpening.length > 0 || invalid.place) {
      return fail('invalid_branch', { details: invalid })
    }

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
        if (!found) return fail('branch_not_found')
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
