import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import { ifMatch } from '#core/http/etag'
import { settings } from '#core/settings'
import CreateListing from '#listings/services/create_listing'
import ChangeListing, { type Change } from '#listings/services/change_listing'
import ShowListing from '#listings/services/show_listing'
import ListListings, { PER_PAGE } from '#listings/services/list_listings'
import { listingEtag } from '#listings/services/listing_etag'
import {
  listingHref,
  listingListShapes,
  listingShapes,
} from '#listings/transformers/listing_transformer'
import {
  listingCreateValidator,
  listingEditValidator,
  listingParamsValidator,
  listingPartialValidator,
  listingQueryValidator,
  toCreateInput,
  toEditInput,
  toPartialInput,
  toStateFilter,
} from '#listings/validators/listing'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import { NOT_FOR_APP, problemFor, type Outcome } from '#listings/http/problems'
import type { ListingNotice } from '#listings/services/listing_failures'

/**
 * Listings of an agency (docs/spec.md §4.1, docs/design.md §6). Services are injected per
 * action, so a GET builds only what a GET needs.
 */
export default class ListingsController {
  @inject()
  async store(ctx: HttpContext, creator: CreateListing) {
    await ctx.request.validateUsing(listingParamsValidator, { data: ctx.params })
    const input = toCreateInput(
      await ctx.request.validateUsing(listingCreateValidator, { data: ctx.request.body() })
    )
    const agency = await agencyOfCaller(ctx, 'write', NOT_FOR_APP)
    const created = await creator.execute(ctx.caller, agency, input)
    if (!created.ok) throw problemFor(created, 'write')
    const href = listingHref(created.value.agency, created.value.record.listing.externalId)
    return send(ctx, created.value, { status: 201, location: settings.publicUrl + href })
  }

  @inject()
  async index(ctx: HttpContext, lister: ListListings) {
    await ctx.request.validateUsing(listingParamsValidator, { data: ctx.params })
    const query = await ctx.request.validateUsing(listingQueryValidator, { data: ctx.request.qs() })
    const state = toStateFilter(query.estado)
    const page = query.pagina ?? 1
    const agency = await agencyOfCaller(ctx, 'read', NOT_FOR_APP)
    const found = await lister.execute(ctx.caller, agency, {
      operator: query.operador,
      state,
      page,
    })
    if (!found.ok) throw problemFor(found, 'read')
    const { records, total } = found.value
    const values = { operador: query.operador, estado: query.estado }
    return respond(
      ctx,
      listingListShapes(agency, records, { page, perPage: PER_PAGE, total }, values)
    )
  }

  @inject()
  async show(ctx: HttpContext, shower: ShowListing) {
    await ctx.request.validateUsing(listingParamsValidator, { data: ctx.params })
    const found = await shower.execute(ctx.caller, ctx.params.adminmail, ctx.params.externalid)
    if (!found.ok) throw problemFor(found, 'read')
    return send(ctx, found.value)
  }

  @inject()
  async update(ctx: HttpContext, changer: ChangeListing) {
    const input = toEditInput(
      await ctx.request.validateUsing(listingEditValidator, { data: ctx.request.body() })
    )
    return change(ctx, changer, { kind: 'edit', input })
  }

  @inject()
  async patch(ctx: HttpContext, changer: ChangeListing) {
    const input = toPartialInput(
      await ctx.request.validateUsing(listingPartialValidator, { data: ctx.request.body() })
    )
    return change(ctx, changer, { kind: 'partial', input })
  }

  @inject()
  suspend(ctx: HttpContext, changer: ChangeListing) {
    return change(ctx, changer, { kind: 'state', active: false })
  }

  @inject()
  activate(ctx: HttpContext, changer: ChangeListing) {
    return change(ctx, changer, { kind: 'state', active: true })
  }

  @inject()
  archive(ctx: HttpContext, changer: ChangeListing) {
    return change(ctx, changer, { kind: 'archive' })
  }
}

/** PUT, PATCH, suspender, activar and DELETE: one service path (docs/spec.md §3). */
async function change(ctx: HttpContext, changer: ChangeListing, requested: Change) {
  const { externalid } = await ctx.request.validateUsing(listingParamsValidator, {
    data: ctx.params,
  })
  const agency = await agencyOfCaller(ctx, 'write', NOT_FOR_APP)
  const changed = await changer.execute({
    caller: ctx.caller,
    agency,
    externalId: externalid!,
    ifMatch: ifMatch(ctx),
    change: requested,
  })
  if (!changed.ok) throw problemFor(changed, 'write')
  return send(ctx, changed.value)
}

function send(
  ctx: HttpContext,
  { agency, record, notices }: Outcome & { notices?: ListingNotice[] },
  options: { status?: number; location?: string } = {}
) {
  return respond(ctx, listingShapes(agency, record, notices), {
    etag: listingEtag(record.listing),
    ...options,
  })
}
