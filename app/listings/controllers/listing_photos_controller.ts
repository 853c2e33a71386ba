import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import { Problem } from '#core/http/problem'
import { listEnvelope } from '#core/http/envelopes'
import { link } from '#core/http/links'
import ListPhotos from '#listings/services/list_photos'
import { readPhoto } from '#listings/services/photo_storage'
import { listingHref, photoEntry, photoRef } from '#listings/transformers/listing_transformer'
import { listingParamsValidator } from '#listings/validators/listing'
import { problemFor } from '#listings/http/problems'

export default class ListingPhotosController {
  /** GET /v3/publicaciones/{adminmail}/{externalid}/fotos */
  @inject()
  async index(ctx: HttpContext, lister: ListPhotos) {
    await ctx.request.validateUsing(listingParamsValidator, { data: ctx.params })
    const found = await lister.execute(ctx.caller, ctx.params.adminmail, ctx.params.externalid)
    if (!found.ok) throw problemFor(found, 'read')
    const { agency, record, photos } = found.value
    const self = listingHref(agency, record.listing.externalId)
    const links = { self: link(`${self}/fotos`), publicacion: link(self) }
    return respond(ctx, {
      full: () => listEnvelope(links, photos.map(photoEntry)),
      ref: () => listEnvelope(links, photos.map(photoRef)),
    })
  }

  /** GET /fotos/{listing}/{file}: processed photos, public and immutable. */
  async show(ctx: HttpContext) {
    const bytes = await readPhoto(`${ctx.params.listing}/${ctx.params.file}`)
    if (!bytes) throw Problem.notFound('La foto no existe.')
    ctx.response.header('Content-Type', 'image/jpeg')
    ctx.response.header('Cache-Control', 'public, max-age=31536000, immutable')
    return ctx.response.send(Buffer.from(bytes))
  }
}
