import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import { ifMatch } from '#core/http/etag'
import { settings } from '#core/settings'
import CreateListing from '#listings/services/create_listing'
import ChangeListing, { type Change } from '#listings/services/change_listing'
import ShowListing from '#listings/services/show_listing'
import ListListings, { PER_PAGE } from '#listings/services/list_listings'
import { path } from '#core/http/links'
import { pagedEnvelope } from '#core/http/envelopes'
import { STATE_CODE } from '#listings/services/listing_rules'
import { listingEtag } from '#listings/services/listing_etag'
import { listingFull, listingHref, listingRef } from '#listings/transformers/listing_transformer'
import {
  listingCreateValidator,
  listingEditValidator,
  listingPartialValidator,
  listingQueryValidator,
  listingParamsValidator,
  toCreateInput,
  toEditInput,
  toPartialInput,
} from '#listings/validators/listing'
import { problemFor, type Outcome } from './problems.js'

/** Listings of an agency (spec §4.1, DESIGN.md §6). */
@inject()
export default class ListingsController {
  constructor(
    private creator: CreateListing,
    private changer: ChangeListing,
    private shower: ShowListing,
    private lister: ListListings
  ) {}

  async index(ctx: HttpContext) {
    await listingParamsValidator.validate(ctx.params)
    const query = await listingQueryValidator.validate(ctx.request.qs())
    const state = query.estado ? STATE_CODE[query.estado as keyof typeof STATE_CODE] : undefined
    const page = query.pagina ?? 1
    const found = await this.lister.execute(ctx.caller, ctx.params.adminmail, { operator: query.operador, state, page })
    if (!found.ok) throw problemFor(found, 'read')
    const { agency, records, total } = found.value
    const template = `${path('publicaciones', agency.adminMail)}{?operador,estado,pagina}`
    const values = { operador: query.operador, estado: query.estado }
    const envelope = (entries: unknown[]) => pagedEnvelope(template, values, { page, perPage: PER_PAGE, total }, entries)
    return respond(ctx, {
      full: () => envelope(records.map((record) => listingFull(agency, record))),
      ref: () => envelope(records.map((record) => listingRef(agency, record))),
    })
  }

  async store(ctx: HttpContext) {
    await listingParamsValidator.validate(ctx.params)
    const input = toCreateInput(await listingCreateValidator.validate(ctx.request.body()))
    const created = await this.creator.execute(ctx.caller, ctx.params.adminmail, input)
    if (!created.ok) throw problemFor(created, 'write')
    const href = listingHref(created.value.agency, created.value.record.listing.externalId)
    return this.#send(ctx, created.value, { status: 201, location: settings.publicUrl + href })
  }

  async show(ctx: HttpContext) {
    await listingParamsValidator.validate(ctx.params)
    const found = await this.shower.execute(ctx.caller, ctx.params.adminmail, ctx.params.externalid)
    if (!found.ok) throw problemFor(found, 'read')
    return this.#send(ctx, found.value)
  }

  async update(ctx: HttpContext) {
    const input = toEditInput(await listingEditValidator.validate(ctx.request.body()))
    return this.#change(ctx, { kind: 'edit', input })
  }

  async patch(ctx: HttpContext) {
    const input = toPartialInput(await listingPartialValidator.validate(ctx.request.body()))
    return this.#change(ctx, { kind: 'partial', input })
  }

  suspend(ctx: HttpContext) {
    return this.#change(ctx, { kind: 'state', active: false })
  }

  activate(ctx: HttpContext) {
    return this.#change(ctx, { kind: 'state', active: true })
  }

  archive(ctx: HttpContext) {
    return this.#change(ctx, { kind: 'archive' })
  }

  async #change(ctx: HttpContext, change: Change) {
    const { adminmail, externalid } = await listingParamsValidator.validate(ctx.params)
    const changed = await this.changer.execute({
      caller: ctx.caller,
      adminMail: adminmail,
      externalId: externalid!,
      ifMatch: ifMatch(ctx),
      change,
    })
    if (!changed.ok) throw problemFor(changed, 'write')
    return this.#send(ctx, changed.value)
  }

  #send(ctx: HttpContext, { agency, record }: Outcome, options: { status?: number; location?: string } = {}) {
    return respond(
      ctx,
      { full: () => listingFull(agency, record), ref: () => listingRef(agency, record) },
      { etag: listingEtag(record.listing), ...options }
    )
  }
}
