import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { expand } from '#core/http/links'
import { Problem } from '#core/http/problem'
import VersionDirectory from '#catalog/services/version_directory'
import MatchVehicle from '#catalog/services/match_vehicle'
import {
  versionMatchValidator,
  versionsQueryValidator,
} from '#catalog/validators/catalog_validators'
import { VERSION } from '#catalog/transformers/vehicle_transformer'
import { catalogQuery, respondEntry, respondList, respondMatch } from './catalog_response.js'

export default class VersionsController {
  /** GET /v3/versiones{?modelo,year,q} */
  @inject()
  async index(ctx: HttpContext, directory: VersionDirectory) {
    const input = await catalogQuery(ctx, versionsQueryValidator)
    const { modelo, year, q } = input
    const versions = await directory.listVersions({ modelId: modelo, year, q })
    if (!versions.ok)
      throw Problem.badRequest({ modelo: [`El modelo ${modelo} no existe en el catálogo.`] })
    const self = { href: expand('/v3/versiones{?modelo,year,q}', input) }
    return respondList(
      ctx,
      VERSION,
      { self, modelo: { href: `/v3/modelos/${modelo}` } },
      versions.value
    )
  }

  /** GET /v3/versiones/{id} */
  @inject()
  show(ctx: HttpContext, directory: VersionDirectory) {
    return respondEntry(ctx, VERSION, (id) => directory.version(id))
  }

  /** GET /v3/versiones/bestmatch{?make,model,version,year,propulsion,transmission} */
  @inject()
  async bestmatch(ctx: HttpContext, match: MatchVehicle) {
    const input = await catalogQuery(ctx, versionMatchValidator)
    return respondMatch(ctx, VERSION, await match.version(input))
  }
}
