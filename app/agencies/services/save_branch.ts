/*
 * Creates or edits a branch (sucursal). On edit, absent fields stay and null
 * clears; the region and city go through the catalogue like everywhere else.
 * A new branch is never the main one (the agency's main branch comes with it).
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import { fail, ok, type Fail, type Ok } from '#core/result'
import type Branch from '#agencies/models/branch'
import BranchStore, { type BranchChanges } from '#agencies/stores/branch_store'
import ResolvePlace, { type Place, type UnknownPlace } from './resolve_place.js'
import { normalizeEmail } from './emails.js'
import { isWhatsapp } from './phones.js'

/** The opening hours of a branch: weekdays, the eve of holidays, holidays. */
export const SCHEDULES = ['weekdays', 'preHolidays', 'holidays'] as const
export type Schedule = (typeof SCHEDULES)[number]

/** Opening and closing time, `HH:MM` or `HH:MM:SS`; null clears the schedule. */
export type Hours = { from: string; to: string } | null

/** What a save may set (undefined: unchanged); places as callers name them. */
export type BranchInput = {
  description?: string
  email?: string | null
  phone?: string | null
  region?: string | null
  city?: string | null
  address?: string | null
  sales?: boolean
  workshop?: boolean
  parts?: boolean
  hours?: Partial<Record<Schedule, Hours | undefined>>
  afterSalesLeadOwner?: string | null
}

export type InvalidBranch = { closesBeforeOpening: Schedule[]; place?: UnknownPlace }
export type BranchFailure = Fail<'branch_not_found'> | Fail<'invalid_branch', InvalidBranch>

/** The columns of each schedule. */
const HOUR_COLUMNS = {
  weekdays: ['workdayFrom', 'workdayTo'],
  preHolidays: ['preHolidayFrom', 'preHolidayTo'],
  holidays: ['holidayFrom', 'holidayTo'],
} as const satisfies Record<Schedule, readonly [keyof BranchChanges, keyof BranchChanges]>

/** What a new branch is unless the input says otherwise. */
const NEW_BRANCH: BranchChanges = { isMain: false, sales: true, workshop: false, parts: false }

const seconds = (time: string) => (time.length === 5 ? `${time}:00` : time)

@inject()
export default class SaveBranch {
  constructor(
    private branches: BranchStore,
    private resolvePlace: ResolvePlace,
    private unitOfWork: UnitOfWork
  ) {}

  /** `branchId` null: a new branch. */
  async execute(
    agencyId: number,
    branchId: number | null,
    input: BranchInput
  ): Promise<Ok<Branch> | BranchFailure> {
    const invalid: InvalidBranch = {
      closesBeforeOpening: SCHEDULES.filter((schedule) => {
        const hours = input.hours?.[schedule]
        return hours && seconds(hours.from) >= seconds(hours.to)
      }),
    }
    let place: Place | null = null
    if (input.region !== undefined || input.city !== undefined) {
      const resolved = await this.resolvePlace.execute({ region: input.region, city: input.city })
      if (!resolved.ok) invalid.place = resolved.details
      else place = resolved.value
    }
    if (invalid.closesBeforeOpening.length > 0 || invalid.place) {
      return fail('invalid_branch', { details: invalid })
    }

    return this.unitOfWork.run(async (tx) => {
      const changes = changesOf(input, place)
      if (branchId === null) {
        return ok(await this.branches.create(agencyId, { ...NEW_BRANCH, ...changes }, tx))
      }
      const branch = await this.branches.find(agencyId, branchId, tx, { forUpdate: true })
      if (!branch) return fail('branch_not_found')
      return ok(await this.branches.update(branch, changes, tx))
    })
  }
}

function changesOf(input: BranchInput, place: Place | null): BranchChanges {
  const changes: BranchChanges = {}
  if (input.description !== undefined) changes.description = input.description
  if (input.email !== undefined) changes.email = input.email ? normalizeEmail(input.email) : null
  if (input.phone !== undefined) {
    changes.phone = input.phone || null
    changes.phoneIsWhatsapp = input.phone ? isWhatsapp(input.phone) : false
  }
  if (input.region !== undefined) changes.regionId = place?.regionId ?? null
  if (input.city !== undefined) {
    changes.cityId = place?.cityId ?? null
    // A city alone implies its region.
    if (input.region === undefined && place?.cityId) changes.regionId = place.regionId
  }
  if (input.address !== undefined) changes.address = input.address || null
  if (input.sales !== undefined) changes.sales = input.sales
  if (input.workshop !== undefined) changes.workshop = input.workshop
  if (input.parts !== undefined) changes.parts = input.parts
  for (const schedule of SCHEDULES) {
    const hours = input.hours?.[schedule]
    if (hours === undefined) continue
    const [from, to] = HOUR_COLUMNS[schedule]
    changes[from] = hours ? seconds(hours.from) : null
    changes[to] = hours ? seconds(hours.to) : null
  }
  if (input.afterSalesLeadOwner !== undefined) {
    changes.afterSalesLeadOwner = input.afterSalesLeadOwner
      ? normalizeEmail(input.afterSalesLeadOwner)
      : null
  }
  return changes
}
