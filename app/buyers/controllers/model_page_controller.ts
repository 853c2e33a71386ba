import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import PickCatalogAgency from '#buyers/services/pick_catalog_agency'
import ModelPageSource from '#buyers/services/model_page_source'
import type { ModelPageView } from '#buyers/transformers/model_page'
import {
  catalogChoices,
  formValues,
  formView,
  isSpam,
  validateInquiryForm,
  type FormErrors,
} from '#buyers/validators/inquiry_form'
import { renderError, renderHtml } from '#buyers/http/html'
import { renderCachedPage } from '#buyers/http/cached_page'
import { renderSentPage } from '#buyers/http/sent_page'
import { inquiryErrors, sentSummary } from '#buyers/http/inquiry_errors'
import { readIntake } from '#leads/validators/intake_request'
import { problemFor } from '#leads/http/problems'

const SENT = 'catalogInquirySent'
const NOT_FOUND = {
  heading: 'No encontramos este modelo',
  message: 'El modelo no existe en el catálogo.',
}

export default class ModelPageController {
  /** GET /modelos/{id}: the model, its versions and the catalogue inquiry form. */
  @inject()
  async show(ctx: HttpContext, catalog: ModelPageSource) {
    const page = await catalog.page(Number(ctx.params.id))
    if (!page) return renderError(ctx, 404, NOT_FOUND)
    return renderCachedPage(ctx, 'model', page, this.#form(page))
  }

  /** POST /modelos/{id}/consultas: a TipoAnuncio Catalogo inquiry for an agency of the buyer's region. */
  @inject()
  async inquire(
    ctx: HttpContext,
    catalog: ModelPageSource,
    picker: PickCatalogAgency,
    intake: ReceiveInquiry
  ) {
    const page = await catalog.page(Number(ctx.params.id))
    if (!page) return renderError(ctx, 404, NOT_FOUND)
    const body = ctx.request.body()
    const values = { ...formValues(body), Region: str(body.Region), VersionId: str(body.VersionId) }
    const choice = catalogChoices(values, page.regionOptions, page.versionOptions)
    if (isSpam(body)) return this.#sent(ctx, page, values, null, '')
    const checked = await validateInquiryForm(values, { VersionId: choice.versionId ?? 0 })
    const errors: FormErrors = {
      ...choice.errors,
      ...(checked.ok ? {} : withoutSubject(checked.errors)),
    }
    if (!checked.ok || Object.keys(choice.errors).length > 0)
      return this.#invalid(ctx, page, values, errors)

    const region = page.regionOptions.find((option) => option.value === choice.regionId)!
    const recipient = await picker.execute(choice.regionId!)
    if (!recipient.ok) {
      return this.#invalid(
        ctx,
        page,
        values,
        {
          Region: [
            `Todavía ninguna agencia de ${region.label} recibe consultas de catálogo. Probá con una provincia cercana.`,
          ],
        },
        409
      )
    }
    const input = {
      ...checked.input,
      Interesado: { ...checked.input.Interesado, Provincia: region.label },
    }
    const read = await readIntake(input)
    if (!read.ok) return this.#invalid(ctx, page, values, inquiryErrors(read.errors))
    const received = await intake.execute({
      appId: recipient.value.appId,
      agencyId: recipient.value.agencyId,
      request: read.value,
    })
    if (!received.ok) {
      const refused = problemFor(received.reason).options.errors
      return this.#invalid(ctx, page, values, inquiryErrors(refused))
    }
    await picker.assigned(recipient.value.agencyId)
    return this.#sent(ctx, page, values, received.value.sid, recipient.value.tradeName)
  }

  /** GET /modelos/{id}/consulta-enviada: the confirmation (Post/Redirect/Get). */
  async sent(ctx: HttpContext) {
    return renderSentPage(ctx, SENT, `/modelos/${Number(ctx.params.id)}`)
  }

  #form(page: ModelPageView, values?: Record<string, string | undefined>, errors?: FormErrors) {
    return formView({
      action: `/modelos/${page.id}/consultas#consulta`,
      recipient: 'una agencia de tu provincia',
      submitLabel: 'Enviar consulta',
      values,
      errors,
      defaultComment: `Hola, quiero saber precio y disponibilidad del ${page.heading}.`,
      selects: [
        {
          name: 'Region',
          label: 'Tu provincia',
          options: [{ value: '', label: 'Elegí una provincia' }, ...page.regionOptions],
          required: true,
        },
        { name: 'VersionId', label: 'Versión', options: page.versionOptions, required: true },
      ],
    })
  }

  #invalid(
    ctx: HttpContext,
    page: ModelPageView,
    values: Record<string, string | undefined>,
    errors: FormErrors,
    status = 400
  ) {
    return renderHtml(ctx, 'model', { page, form: this.#form(page, values, errors) }, status)
  }

  #sent(
    ctx: HttpContext,
    page: ModelPageView,
    values: Record<string, string | undefined>,
    reference: string | null,
    recipient: string
  ) {
    const back = `/modelos/${page.id}`
    ctx.session.flash(
      SENT,
      sentSummary(values, {
        vehicle: page.heading,
        recipient,
        reference,
        back,
        backLabel: 'Volver al modelo',
      })
    )
    return ctx.response.redirect().status(303).toPath(`${back}/consulta-enviada`)
  }
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** The subject (VersionId) is reported on its own select, not twice. */
function withoutSubject(errors: FormErrors): FormErrors {
  const { VersionId: _ignored, ...rest } = errors
  return rest
}
