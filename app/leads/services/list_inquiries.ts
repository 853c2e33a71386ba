/*
 * GET /v3/consultas[/{adminmail}]: the reception period (desde ≥ today − 90
 * days, hasta ≥ desde, whole days in TZ), the operator filter and one page.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import { settings } from '#core/settings'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import { LIMITS } from '#leads/validators/inquiry_validators'
import InquiryReader, { type InquiryPage } from './inquiry_reader.js'

/** The list's filters (docs/spec.md §4.5); days are calendar days read in TZ. */
export type InquiryFilters = {
  operator?: string
  externalId?: string
  from?: Date
  to?: Date
  page?: number
}

export type ListFailure = 'period_reversed' | 'operator_or_agency_required' | 'not_a_member'

export type ListResult = InquiryPage & {
  from: DateTime
  to: DateTime
  page: number
  perPage: number
}

/** A vine date (parsed in the process's zone) as the same calendar day in TZ. */
const dayOf = (date: Date) =>
  DateTime.fromISO(DateTime.fromJSDate(date).toISODate()!, { zone: settings.timezone }).startOf(
    'day'
  )

/**
 * The default period, [today − 90 days, tomorrow) in TZ, made once a day: luxon's
 * zone arithmetic (an Intl lookup per step) cost more CPU than the rest of a page
 * (docs/decisions/performance.md, Performance). A container singleton (app/leads/provider.ts).
 */
export class DefaultPeriod {
  #known: { zone: string; today: DateTime; from: DateTime; to: DateTime } | undefined

  today() {
    const now = Date.now()
    const known = this.#known
    if (
      known &&
      known.zone === settings.timezone &&
      now >= known.today.toMillis() &&
      now < known.to.toMillis()
    )
      return known
    const today = DateTime.fromMillis(now).setZone(settings.timezone).startOf('day')
    this.#known = {
      zone: settings.timezone,
      today,
      from: today.minus({ days: LIMITS.listDays }),
      to: today.plus({ days: 1 }),
    }
    return this.#known
  }
}

@inject()
export default class ListInquiries {
  constructor(
    private reader: InquiryReader,
    private agencies: AgencyDirectory,
    private periods: DefaultPeriod
  ) {}

  async execute(
    appId: number,
    agency: AgencyView | null,
    query: InquiryFilters
  ): Promise<Result<ListResult, ListFailure>> {
    const period = this.periods.today()
    const from = query.from ? dayOf(query.from) : period.from
    const lastDay = query.to ? dayOf(query.to) : period.today
    if (lastDay < from) return fail('period_reversed')
    const page = query.page ?? 1
    const filters = {
      externalId: query.externalId,
      from,
      to: query.to ? lastDay.plus({ days: 1 }) : period.to,
      page,
      perPage: LIMITS.perPage,
    }

    if (!agency) {
      if (!query.operator) return fail('operator_or_agency_required')
      const found = await this.reader.pageForOperator(appId, {
        ...filters,
        operatorEmail: query.operator,
      })
      return ok({ ...found, from, to: filters.to, page, perPage: LIMITS.perPage })
    }

    if (query.operator && !(await this.agencies.member(agency.id, query.operator))) {
      return fail('not_a_member')
    }
    const audience = { appId, agencyId: agency.id, receivesOtherLeads: agency.receivesOtherLeads }
    const found = await this.reader.page(
      audience,
      { ...filters, operatorEmail: query.operator },
      agency.adminMail
    )
    return ok({ ...found, from, to: filters.to, page, perPage: LIMITS.perPage })
  }
}
