import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ListingDirectory, { type PublicListing } from '#listings/services/listing_directory'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import RecordVisit from '#buyers/services/record_visit'
import SellerProfileReader from '#buyers/services/seller_profile'
import { listingPage, type ListingPageView } from '#buyers/transformers/listing_page'
import {
  formValues,
  formView,
  isSpam,
  validateInquiryForm,
  type FormErrors,
  type FormValues,
} from '#buyers/validators/inquiry_form'
import { renderError, renderHtml } from '#buyers/http/html'
import { renderCachedPage } from '#buyers/http/cached_page'
import { renderSentPage } from '#buyers/http/sent_page'
import { visitorOf } from '#buyers/http/visitor'
import { inquiryErrors, sentSummary } from '#buyers/http/inquiry_errors'
import { readIntake } from '#leads/validators/intake_request'
import { problemFor } from '#leads/http/problems'

const SENT = 'inquirySent'

export default class ListingPageController {
  /** GET /autos/{slug}: the page of an active listing; counts the visit. */
  @inject()
  async show(
    ctx: HttpContext,
    listings: ListingDirectory,
    sellers: SellerProfileReader,
    visits: RecordVisit
  ) {
    const listing = await listings.bySlug(ctx.params.slug)
    if (!listing) return renderError(ctx, 404)
    if (listing.state !== 'active') return renderError(ctx, 410)
    if (ctx.request.method() === 'GET') await count(ctx, visits, listing)
    const page = listingPage(listing, await sellers.execute(listing))
    return renderCachedPage(ctx, 'listing', page, this.#form(page))
  }

  /** POST /autos/{slug}/consultas: the form goes through the API's intake (OrigenLead Portal). */
  @inject()
  async inquire(
    ctx: HttpContext,
    listings: ListingDirectory,
    sellers: SellerProfileReader,
    intake: ReceiveInquiry
  ) {
    const listing = await listings.bySlug(ctx.params.slug)
    if (!listing) return renderError(ctx, 404)
    if (listing.state !== 'active') return renderError(ctx, 410)
    const body = ctx.request.body()
    const values = formValues(body)
    const page = listingPage(listing, await sellers.execute(listing))
    if (isSpam(body)) {
      // Robots get the same answer as people, so they learn nothing.
      ctx.logger.info({ slug: listing.slug }, 'honeypot filled: inquiry dropped')
      return this.#sent(ctx, page, values, null)
    }
    const checked = await validateInquiryForm(values, { ExternalId: listing.externalId })
    if (!checked.ok) return this.#invalid(ctx, page, values, checked.errors)
    const read = await readIntake(checked.input)
    if (!read.ok) return this.#invalid(ctx, page, values, inquiryErrors(read.errors))
    const received = await intake.execute({
      appId: listing.appId,
      agencyId: listing.agencyId,
      request: read.value,
    })
    if (!received.ok && received.reason === 'listing_inactive') return renderError(ctx, 410)
    if (!received.ok) {
      const { errors } = problemFor(received.reason).options
      return this.#invalid(ctx, page, values, inquiryErrors(errors))
    }
    return this.#sent(ctx, page, values, received.value.sid)
  }

  /** GET /autos/{slug}/consulta-enviada: the confirmation (Post/Redirect/Get). */
  async sent(ctx: HttpContext) {
    return renderSentPage(ctx, SENT, `/autos/${encodeURIComponent(ctx.params.slug)}`)
  }

  #form(page: ListingPageView, values?: FormValues, errors?: FormErrors) {
    return formView({
      action: `/autos/${encodeURIComponent(page.slug)}/consultas#consulta`,
      recipient: page.agency.name || 'la agencia',
      submitLabel: 'Enviar consulta',
      values,
      errors,
      defaultComment: `Hola, me interesa el ${page.heading} ${page.subtitle.split(' · ')[0]}. ¿Sigue disponible?`,
    })
  }

  #invalid(ctx: HttpContext, page: ListingPageView, values: FormValues, errors: FormErrors) {
    return renderHtml(ctx, 'listing', { page, form: this.#form(page, values, errors) }, 400)
  }

  #sent(ctx: HttpContext, page: ListingPageView, values: FormValues, reference: string | null) {
    const back = `/autos/${encodeURIComponent(page.slug)}`
    ctx.session.flash(
      SENT,
      sentSummary(values, { vehicle: page.og.title, recipient: page.agency.name, reference, back })
    )
    return ctx.response.redirect().status(303).toPath(`${back}/consulta-enviada`)
  }
}

async function count(ctx: HttpContext, visits: RecordVisit, listing: PublicListing) {
  const target = {
    listingId: listing.id,
    appId: listing.appId,
    agencyId: listing.agencyId,
    externalId: listing.externalId,
    operatorId: listing.operatorId,
  }
  try {
    await visits.execute(target, visitorOf(ctx))
  } catch (error) {
    // A lost visit never costs the buyer the page.
    ctx.logger.warn({ err: error, listingId: listing.id }, 'visit not counted')
  }
}
