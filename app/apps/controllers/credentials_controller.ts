import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { settings } from '#core/settings'
import TokenReader from '#apps/services/token_reader'
import RotateToken from '#apps/services/rotate_token'
import {
  credentialListValidator,
  rotateCredentialValidator,
} from '#apps/validators/credentials_validator'
import {
  credentialHref,
  credentialListShapes,
  credentialShapes,
  rotatedShapes,
} from '#apps/transformers/credential_transformer'
import { problemFor } from '#apps/http/problems'

/** `/v3/credenciales`: the calling app's tokens, and rotating the one it calls with (docs/design.md §18). */
export default class CredentialsController {
  @inject()
  async index(ctx: HttpContext, reader: TokenReader) {
    const query = await ctx.request.validateUsing(credentialListValidator, {
      data: ctx.request.qs(),
    })
    return respond(
      ctx,
      credentialListShapes(await reader.livePage(ctx.caller.id, query.pagina ?? 1))
    )
  }

  @inject()
  async show(ctx: HttpContext, reader: TokenReader) {
    const id = /^[1-9][0-9]{0,9}$/.test(ctx.params.id) ? Number(ctx.params.id) : 0
    const token = id > 0 && id <= 2_147_483_647 ? await reader.liveOne(ctx.caller.id, id) : null
    if (!token) throw Problem.notFound('La credencial no existe, venció o fue revocada.')
    return respond(ctx, credentialShapes(token))
  }

  @inject()
  async store(ctx: HttpContext, rotate: RotateToken) {
    const input = await ctx.request.validateUsing(rotateCredentialValidator, {
      data: ctx.request.body(),
    })
    const result = await rotate.execute(
      { appId: ctx.caller.id, tokenId: ctx.credential.tokenId },
      { name: input.Nombre, overlapSeconds: input.AnteriorExpiraEnSegundos }
    )
    if (!result.ok) throw problemFor(result.reason)
    const location = settings.publicUrl + credentialHref(result.value.row.id)
    // The body carries a secret: no cache (a proxy's, the client's) may keep it.
    ctx.response.header('Cache-Control', 'no-store')
    return respond(ctx, rotatedShapes(result.value), { status: 201, location })
  }
}
