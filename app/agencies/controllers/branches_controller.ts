import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import vine from '@vinejs/vine'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import { settings } from '#core/settings'
import AgencyDirectory from '#agencies/services/agency_directory'
import AgencyService from '#agencies/services/agency_service'
import SaveBranch from '#agencies/services/save_branch'
import LoadPlaceNames from '#agencies/services/place_names'
import { branchCreateValidator, branchEditValidator } from '#agencies/validators/branch_validators'
import {
  branchHref,
  branchListShapes,
  branchShapes,
} from '#agencies/transformers/branch_transformer'
import type Branch from '#agencies/models/branch'

const NOT_FOR_APP = 'La agencia no existe para esta aplicación.'
const branchId = vine.create({ id: vine.number().withoutDecimals().min(1).max(2_147_483_647) })

@inject()
export default class BranchesController {
  constructor(
    private directory: AgencyDirectory,
    private agencies: AgencyService,
    private save: SaveBranch,
    private placeNames: LoadPlaceNames
  ) {}

  /** GET /v3/sucursales/{adminmail} */
  async index(ctx: HttpContext) {
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound(NOT_FOR_APP)
    const branches = await this.agencies.branches(agency.id)
    return respond(
      ctx,
      branchListShapes(agency.adminMail, branches, await this.placeNames.execute(branches))
    )
  }

  /** GET /v3/sucursales/{adminmail}/{id} */
  async show(ctx: HttpContext) {
    const { id } = await branchId.validate(ctx.params)
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound(NOT_FOR_APP)
    const branch = await this.agencies.branch(agency.id, id)
    if (!branch) throw Problem.notFound('La sucursal no existe.')
    return this.respond(ctx, agency.adminMail, branch)
  }

  /** POST /v3/sucursales/{adminmail} */
  async store(ctx: HttpContext) {
    const input = await branchCreateValidator.validate(ctx.request.body())
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden(NOT_FOR_APP)
    const saved = await this.save.execute(agency.id, null, input)
    if (!saved.ok) throw Problem.badRequest(saved.errors ?? {})
    return this.respond(ctx, agency.adminMail, saved.value, 201)
  }

  /** PUT /v3/sucursales/{adminmail}/{id} */
  async update(ctx: HttpContext) {
    const { id } = await branchId.validate(ctx.params)
    const input = await branchEditValidator.validate(ctx.request.body())
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden(NOT_FOR_APP)
    const saved = await this.save.execute(agency.id, id, input)
    if (!saved.ok) {
      if (saved.reason === 'not_found') throw Problem.notFound('La sucursal no existe.')
      throw Problem.badRequest(saved.errors ?? {})
    }
    return this.respond(ctx, agency.adminMail, saved.value)
  }

  private async respond(ctx: HttpContext, agencyEmail: string, branch: Branch, status = 200) {
    const names = await this.placeNames.execute([branch])
    const location =
      status === 201 ? settings.publicUrl + branchHref(agencyEmail, branch) : undefined
    return respond(ctx, branchShapes(agencyEmail, branch, names), { status, location })
  }
}
