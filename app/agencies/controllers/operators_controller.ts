import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import { retryOnUniqueViolation } from '#core/database/errors'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import { settings } from '#core/settings'
import AgencyDirectory from '#agencies/services/agency_directory'
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
} from '#agencies/validators/operator_validators'
import {
  operatorHref,
  operatorListShapes,
  operatorShapes,
  type OperatorEntry,
} from '#agencies/transformers/operator_transformer'

const NOT_FOR_APP = 'La agencia no existe para esta aplicación.'

@inject()
export default class OperatorsController {
  constructor(
    private directory: AgencyDirectory,
    private reader: OperatorReader,
    private placeNames: LoadPlaceNames,
    private add: AddCollaborator,
    private edit: EditOperator,
    private detacher: DetachOperator
  ) {}

  /** GET /v3/operadores/{adminmail}{?operador} */
  async index(ctx: HttpContext) {
    const { operador } = await operatorFilterValidator.validate(ctx.request.qs())
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound(NOT_FOR_APP)
    const entries = await this.reader.members(agency.id, agency.adminMail, operador)
    return respond(ctx, operatorListShapes(agency.adminMail, entries, await this.names(entries)))
  }

  /** GET /v3/operadores?operador= (the person in any agency linked to the app) */
  async find(ctx: HttpContext) {
    const { operador } = await operatorQueryValidator.validate(ctx.request.qs())
    const entry = await this.reader.forApp(ctx.caller.id, operador)
    if (!entry) throw Problem.notFound('El operador no existe para esta aplicación.')
    return respond(ctx, operatorShapes(entry, await this.names([entry])))
  }

  /** POST /v3/operadores/{adminmail}: adds a collaborator. */
  async store(ctx: HttpContext) {
    const input = await collaboratorCreateValidator.validate(ctx.request.body())
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden(NOT_FOR_APP)
    // A concurrent first POST of the same person loses on the unique e-mail: its replay answers the sequential 409.
    const added = await retryOnUniqueViolation(
      ['operators_email_unique', 'memberships_operator_id_unique'],
      () =>
        db.transaction((trx) =>
          this.add.execute(
            agency.id,
            {
              email: input.Email,
              firstName: input.Nombre,
              lastName: input.Apellido,
              phones: input.Telefonos,
            },
            trx
          )
        )
    )
    if (!added.ok) {
      const message =
        added.reason === 'already_member'
          ? 'El operador ya es colaborador de la agencia.'
          : 'El operador ya colabora con otra agencia; debe desasociarse de ella primero.'
      throw Problem.conflict({ Email: [message] })
    }
    const entry: OperatorEntry = {
      operator: added.value,
      isAdmin: false,
      agencyEmail: agency.adminMail,
    }
    return respond(ctx, operatorShapes(entry, await this.names([entry])), {
      status: 201,
      location: settings.publicUrl + operatorHref(agency.adminMail, added.value.email),
    })
  }

  /** PUT /v3/operadores/{adminmail}{?operador} (default: the administrator) */
  async update(ctx: HttpContext) {
    const { operador } = await operatorFilterValidator.validate(ctx.request.qs())
    const input = await operatorEditValidator.validate(ctx.request.body())
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden(NOT_FOR_APP)
    const edited = await this.edit.execute(agency.id, operador, input)
    if (!edited.ok) {
      if (edited.reason === 'invalid') throw Problem.badRequest(edited.errors!)
      if (edited.reason === 'admin_not_editable') {
        throw Problem.forbidden(
          'El administrador no fue creado por la API: gestiona sus datos en su propia cuenta.'
        )
      }
      throw Problem.notFound('El operador no es colaborador de la agencia.')
    }
    const entry: OperatorEntry = { ...edited.value, agencyEmail: agency.adminMail }
    return respond(ctx, operatorShapes(entry, await this.names([entry])))
  }

  /** PATCH /v3/operadores/{adminmail}/desasociar?operador&operadorDestino */
  async detach(ctx: HttpContext) {
    const { operador, operadorDestino } = await detachValidator.validate(ctx.request.qs())
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden(NOT_FOR_APP)
    const detached = await this.detacher.execute(agency.id, operador, operadorDestino)
    if (!detached.ok) throw Problem.badRequest(detached.errors!)
    return ctx.response.status(204).send('')
  }

  private names(entries: OperatorEntry[]) {
    return this.placeNames.execute(entries.map(({ operator }) => operator))
  }
}
