import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { expand } from '#core/http/links'
import { Problem } from '#core/http/problem'
import { PROPULSIONS, TRANSMISSIONS } from '#core/value_sets'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import VersionDirectory from '#catalog/services/version_directory'
import { propulsionOf, transmissionOf } from '#catalog/services/normalize'
import {
  idValidator,
  versionMatchValidator,
  versionsQueryValidator,
} from '#catalog/validators/catalog_validators'
import {
  listShapes,
  shapes,
  versionFull,
  versionRef,
} from '#catalog/transformers/vehicle_transformer'
import { matchProblem, notFound, queryOf, respondCatalog } from './catalog_response.js'

export default class VersionsController {
  /** GET /v3/versiones{?modelo,year,q} */
  @inject()
  async index(ctx: HttpContext, directory: VersionDirectory) {
    const input = await ctx.request.validateUsing(versionsQueryValidator, { data: queryOf(ctx) })
    const versions = await directory.versions({
      modelId: input.modelo,
      year: input.year,
      q: input.q,
    })
    // Versions found name an existing model: only an empty list asks whether it exists.
    if (versions.length === 0 && !(await directory.modelExists(input.modelo))) {
      throw Problem.badRequest({ modelo: [`El modelo ${input.modelo} no existe en el catálogo.`] })
    }
    const self = { href: expand('/v3/versiones{?modelo,year,q}', input) }
    return respondCatalog(
      ctx,
      listShapes(
        { self, modelo: { href: `/v3/modelos/${input.modelo}` } },
        versions,
        versionFull,
        versionRef
      )
    )
  }

  /** GET /v3/versiones/{id} */
  @inject()
  async show(ctx: HttpContext, directory: VersionDirectory) {
    const { id } = await ctx.request.validateUsing(idValidator, { data: { id: ctx.params.id } })
    const version = await directory.version(id)
    if (!version) throw notFound('La versión')
    return respondCatalog(ctx, shapes(version, versionFull, versionRef))
  }

  /** GET /v3/versiones/bestmatch{?make,model,version,year,propulsion,transmission} */
  @inject()
  async bestmatch(ctx: HttpContext, resolver: VehicleResolver) {
    const input = await ctx.request.validateUsing(versionMatchValidator, { data: queryOf(ctx) })
    const propulsion = input.propulsion ? propulsionOf(input.propulsion) : null
    const transmission = input.transmission ? transmissionOf(input.transmission) : null
    const errors: Record<string, string[]> = {}
    if (input.propulsion && !propulsion)
      errors.propulsion = [`Valores posibles: ${PROPULSIONS.join(', ')}.`]
    if (input.transmission && !transmission)
      errors.transmission = [`Valores posibles: ${TRANSMISSIONS.join(', ')}.`]
    if (Object.keys(errors).length > 0) throw Problem.badRequest(errors)
    const brand = await resolver.brand(input.make)
    if (!brand.ok) throw matchProblem('make', brand.reason)
    const model = await resolver.model(input.model, brand.value.id)
    if (!model.ok) throw matchProblem('model', model.reason)
    const version = await resolver.version(input.version ?? '', model.value.id, input.year, {
      propulsion,
      transmission,
    })
    if (!version.ok) throw matchProblem('version', version.reason)
    return respondCatalog(ctx, shapes(version.value, versionFull, versionRef))
  }
}
