import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { settings } from '#core/settings'
import OperatorReader from '#agencies/services/operator_reader'
import EditOperator from '#agencies/services/edit_operator'
import DetachOperator from '#agencies/services/detach_operator'
import AddCollaborator from '#agencies/services/add_collaborator'
import LoadPlaceNames from '#agencies/services/place_names'
import {
  collaboratorCreateValidator,
  detachValidator,
  operatorEditValidator,
  operatorFilterValidator,
  operatorQueryValidator,
  toNewCollaborator,
  toOperatorEdit,
} from '#agencies/validators/operator_validators'
import {
  operatorHref,
  operatorListShapes,
  operatorShapes,
  type OperatorEntry,
} from '#agencies/transformers/operator_transformer'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import { problemFor } from '#agencies/http/problems'

export default class OperatorsController {
  /** GET /v3/operadores/{adminmail}{?operador} */
  @inject()
  async index(ctx: HttpContext, reader: OperatorReader, placeNames: LoadPlaceNames) {
    const { operador } = await ctx.request.validateUsing(operatorFilterValidator, {
      data: ctx.request.qs(),
    })
    const agency = await agencyOfCaller(ctx, 'read')
    const entries = await reader.members(agency.id, agency.adminMail, operador)
    return respond(
      ctx,
      operatorListShapes(agency.adminMail, entries, await names(placeNames, entries))
    )
  }

  /** GET /v3/operadores?operador= (the person in any agency linked to the app) */
  @inject()
  async find(ctx: HttpContext, reader: OperatorReader, placeNames: LoadPlaceNames) {
    const { operador } = await ctx.request.validateUsing(operatorQueryValidator, {
      data: ctx.request.qs(),
    })
    const entry = await reader.forApp(ctx.caller.id, operador)
    if (!entry) throw Problem.notFound('El operador no existe para esta aplicación.')
    return respond(ctx, operatorShapes(entry, await names(placeNames, [entry])))
  }

  /** POST /v3/operadores/{adminmail}: adds a collaborator. */
  @inject()
  async store(ctx: HttpContext, add: AddCollaborator, placeNames: LoadPlaceNames) {
    const input = await ctx.request.validateUsing(collaboratorCreateValidator, {
      data: ctx.request.body(),
    })
    const agency = await agencyOfCaller(ctx, 'write')
    const added = await add.execute(agency.id, toNewCollaborator(input))
    if (!added.ok) throw problemFor(added)
    const entry: OperatorEntry = {
      operator: added.value,
      isAdmin: false,
      agencyEmail: agency.adminMail,
    }
    return respond(ctx, operatorShapes(entry, await names(placeNames, [entry])), {
      status: 201,
      location: settings.publicUrl + operatorHref(agency.adminMail, added.value.email),
    })
  }

  /** PUT /v3/operadores/{adminmail}{?operador} (default: the administrator) */
  @inject()
  async update(ctx: HttpContext, edit: EditOperator, placeNames: LoadPlaceNames) {
    const { operador } = await ctx.request.validateUsing(operatorFilterValidator, {
      data: ctx.request.qs(),
    })
    const input = await ctx.request.validateUsing(operatorEditValidator, {
      data: ctx.request.body(),
    })
    const agency = await agencyOfCaller(ctx, 'write')
    const edited = await edit.execute(agency.id, operador, toOperatorEdit(input))
    if (!edited.ok) throw problemFor(edited)
    const entry: OperatorEntry = { ...edited.value, agencyEmail: agency.adminMail }
    return respond(ctx, operatorShapes(entry, await names(placeNames, [entry])))
  }

  /** PATCH /v3/operadores/{adminmail}/desasociar?operador&operadorDestino */
  @inject()
  async detach(ctx: HttpContext, detacher: DetachOperator) {
    const { operador, operadorDestino } = await ctx.request.validateUsing(detachValidator, {
      data: ctx.request.qs(),
    })
    const agency = await agencyOfCaller(ctx, 'write')
    const detached = await detacher.execute(agency.id, operador, operadorDestino)
    if (!detached.ok) throw problemFor(detached)
    return ctx.response.status(204).send('')
  }
}

function names(placeNames: LoadPlaceNames, entries: OperatorEntry[]) {
  return placeNames.execute(entries.map(({ operator }) => operator))
}
