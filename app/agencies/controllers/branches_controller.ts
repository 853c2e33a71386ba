import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import vine from '@vinejs/vine'
import { respond } from '#core/http/respond'
import { settings } from '#core/settings'
import AgencyService from '#agencies/services/agency_service'
import SaveBranch from '#agencies/services/save_branch'
import LoadPlaceNames from '#agencies/services/place_names'
import {
  branchCreateValidator,
  branchEditValidator,
  toBranchInput,
} from '#agencies/validators/branch_validators'
import {
  branchHref,
  branchListShapes,
  branchShapes,
} from '#agencies/transformers/branch_transformer'
import type Branch from '#agencies/models/branch'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import { problemFor } from '#agencies/http/problems'

const branchId = vine.create({ id: vine.number().withoutDecimals().min(1).max(2_147_483_647) })

export default class BranchesController {
  /** GET /v3/sucursales/{adminmail} */
  @inject()
  async index(ctx: HttpContext, agencies: AgencyService, placeNames: LoadPlaceNames) {
    const agency = await agencyOfCaller(ctx, 'read')
    const branches = await agencies.branches(agency.id)
    return respond(
      ctx,
      branchListShapes(agency.adminMail, branches, await placeNames.execute(branches))
    )
  }

  /** GET /v3/sucursales/{adminmail}/{id} */
  @inject()
  async show(ctx: HttpContext, agencies: AgencyService, placeNames: LoadPlaceNames) {
    const { id } = await ctx.request.validateUsing(branchId, { data: ctx.params })
    const agency = await agencyOfCaller(ctx, 'read')
    const branch = await agencies.branch(agency.id, id)
    if (!branch) throw problemFor({ ok: false, reason: 'branch_not_found' })
    return send(ctx, placeNames, agency.adminMail, branch)
  }

  /** POST /v3/sucursales/{adminmail} */
  @inject()
  async store(ctx: HttpContext, save: SaveBranch, placeNames: LoadPlaceNames) {
    const input = await ctx.request.validateUsing(branchCreateValidator, {
      data: ctx.request.body(),
    })
    const agency = await agencyOfCaller(ctx, 'write')
    const saved = await save.execute(agency.id, null, toBranchInput(input))
    if (!saved.ok) throw problemFor(saved)
    return send(ctx, placeNames, agency.adminMail, saved.value, 201)
  }

  /** PUT /v3/sucursales/{adminmail}/{id} */
  @inject()
  async update(ctx: HttpContext, save: SaveBranch, placeNames: LoadPlaceNames) {
    const { id } = await ctx.request.validateUsing(branchId, { data: ctx.params })
    const input = await ctx.request.validateUsing(branchEditValidator, { data: ctx.request.body() })
    const agency = await agencyOfCaller(ctx, 'write')
    const saved = await save.execute(agency.id, id, toBranchInput(input))
    if (!saved.ok) throw problemFor(saved)
    return send(ctx, placeNames, agency.adminMail, saved.value)
  }
}

async function send(
  ctx: HttpContext,
  placeNames: LoadPlaceNames,
  agencyEmail: string,
  branch: Branch,
  status = 200
) {
  const names = await placeNames.execute([branch])
  const location = status === 201 ? settings.publicUrl + branchHref(agencyEmail, branch) : undefined
  return respond(ctx, branchShapes(agencyEmail, branch, names), { status, location })
}
