/*
 * GET /v3/consultas[/{adminmail}]: the reception period (desde ≥ today − 90
 * days, hasta ≥ desde, whole days in TZ), the operator filter and one page.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import { settings } from '#core/settings'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import { LIMITS, type ListQuery } from '#leads/validators/inquiry_validators'
import InquiryReader, { type InquiryPage } from './inquiry_reader.js'

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

@inject()
export default class ListInquiries {
  constructor(
    private reader: InquiryReader,
    private agencies: AgencyDirectory
  ) {}

  async execute(
    appId: number,
    agency: AgencyView | null,
    query: ListQuery
  ): Promise<Result<ListResult, 'invalid'>> {
    const today = DateTime.now().setZone(settings.timezone).startOf('day')
    const from = query.desde ? dayOf(query.desde) : today.minus({ days: LIMITS.listDays })
    const lastDay = query.hasta ? dayOf(query.hasta) : today
    if (lastDay < from) {
      return fail('invalid', {
        errors: { hasta: ['El campo hasta no debe ser anterior a desde.'] },
      })
    }
    const page = query.pagina ?? 1
    const filters = {
      externalId: query.externalid,
      from,
      to: lastDay.plus({ days: 1 }),
      page,
      perPage: LIMITS.perPage,
    }

    if (!agency) {
      if (!query.operador)
        return fail('invalid', {
          errors: { operador: ['Indique operador o la agencia en la ruta.'] },
        })
      const found = await this.reader.pageForOperator(appId, {
        ...filters,
        operatorEmail: query.operador,
      })
      return ok({ ...found, from, to: filters.to, page, perPage: LIMITS.perPage })
    }

    if (query.operador && !(await this.agencies.member(agency.id, query.operador))) {
      return fail('invalid', {
        errors: { operador: ['El operador no es colaborador de la agencia.'] },
      })
    }
    const audience = { appId, agencyId: agency.id, receivesOtherLeads: agency.receivesOtherLeads }
    const found = await this.reader.page(
      audience,
      { ...filters, operatorEmail: query.operador },
      agency.adminMail
    )
    return ok({ ...found, from, to: filters.to, page, perPage: LIMITS.perPage })
  }
}
