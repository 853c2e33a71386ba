/*
 * PATCH /v3/operadores/{adminmail}/desasociar: the collaborator leaves the
 * agency; their listings, inquiries and notification ownership pass to the
 * receiving member in the same transaction. The person stays a user and may
 * join another agency later.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Result } from '#core/result'
import Membership from '#agencies/models/membership'
import { operatorHandovers } from '#agencies/hooks'
import AgencyDirectory from './agency_directory.js'

export type DetachFailure = 'invalid'

@inject()
export default class DetachOperator {
  constructor(private directory: AgencyDirectory) {}

  async execute(
    agencyId: number,
    email: string,
    destinationEmail: string
  ): Promise<Result<void, DetachFailure>> {
    const handovers = await operatorHandovers()
    return db.transaction(async (trx) => {
      // Writers naming a responsible member wait (AgencyDirectory.holdMembers), so none can hand
      // work to the leaving person after its listings moved. Then the memberships: two detaches
      // cannot hand work to each other.
      await this.directory.lockHandover(agencyId, trx)
      await Membership.query({ client: trx }).where('agency_id', agencyId).forUpdate().select('id')
      const [leaving, receiving] = await Promise.all([
        this.directory.member(agencyId, email, trx),
        this.directory.member(agencyId, destinationEmail, trx),
      ])
      const errors: Record<string, string[]> = {}
      if (!leaving) errors.operador = ['El operador no es colaborador de la agencia.']
      else if (leaving.isAdmin)
        errors.operador = ['El administrador de la agencia no puede desasociarse.']
      if (!receiving)
        errors.operadorDestino = ['El operador de destino no es colaborador de la agencia.']
      else if (receiving.suspended)
        errors.operadorDestino = ['El operador de destino está suspendido.']
      if (leaving && receiving && leaving.id === receiving.id) {
        errors.operadorDestino = ['El operador de destino debe ser otro colaborador.']
      }
      if (Object.keys(errors).length || !leaving || !receiving) return fail('invalid', { errors })

      // The single place where work changes hands: the modules' handovers (listings, then
      // leads, as start/modules.ts lists them; agencies/hooks.ts).
      for (const handover of handovers) {
        const moved = await handover.execute(agencyId, leaving.id, receiving.id, trx)
        if (!moved.ok)
          return fail('invalid', {
            errors: { operadorDestino: ['El operador de destino no es válido.'] },
          })
      }

      await Membership.query({ client: trx })
        .where('agency_id', agencyId)
        .where('operator_id', leaving.id)
        .delete()
      return ok(undefined)
    })
  }
}
