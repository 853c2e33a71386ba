/*
 * `{adminmail}/{sid}` for the calling app: the agency and the inquiry it may
 * read (docs/spec.md §4), or 404 — the one resolver the inquiry reads share.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import type InquiryReader from '#leads/services/inquiry_reader'
import { NO_INQUIRY } from '#leads/http/problems'

export async function inquiryOfCaller(ctx: HttpContext, reader: InquiryReader) {
  const agency = await agencyOfCaller(ctx, 'read')
  const audience = {
    appId: ctx.caller.id,
    agencyId: agency.id,
    receivesOtherLeads: agency.receivesOtherLeads,
  }
  const inquiry = await reader.find(audience, ctx.params.sid)
  if (!inquiry) throw Problem.notFound(NO_INQUIRY)
  return { agency, inquiry }
}
