/*
 * The notification_configs table: one row per agency and app. Plain CRUD
 * through the Lucid model (docs/architecture.md, a store's style); the intake
 * reads its configurations with its own INSERT (InquiryStore).
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'
import NotificationConfig from '#leads/models/notification_config'
import type { Channel } from '#leads/services/notification_fanout'

const ACTIVE_COLUMN: Record<Channel, string> = {
  webhook: 'webhook_active',
  adfHook: 'adf_hook_active',
  adfMail: 'adf_mail_active',
  htmlMail: 'html_mail_active',
}

@inject()
export default class NotificationConfigStore {
  /** The configuration of `agencyId` for `appId`, or null. */
  of(appId: number, agencyId: number, tx?: Tx) {
    return NotificationConfig.forApp({ id: appId })
      .if(tx, (query) => query.useTransaction(tx!))
      .where('agency_id', agencyId)
      .first()
  }

  find(id: number, tx?: Tx) {
    return NotificationConfig.find(id, { client: tx })
  }

  /**
   * The configuration, created empty if missing, locked until `tx` ends: the
   * row exists before it is locked, so concurrent first PUTs queue on the
   * lock instead of racing on the unique (agency_id, app_id) insert.
   */
  async lockForReplace(appId: number, agencyId: number, tx: Tx) {
    await tx
      .table('notification_configs')
      .insert({ app_id: appId, agency_id: agencyId })
      .onConflict(['agency_id', 'app_id'])
      .ignore()
    const config = await NotificationConfig.forApp({ id: appId })
      .useTransaction(tx)
      .where('agency_id', agencyId)
      .forUpdate()
      .firstOrFail()
    config.useTransaction(tx)
    return config
  }

  async save(config: NotificationConfig, tx?: Tx) {
    if (tx) config.useTransaction(tx)
    await config.save()
    return config
  }

  /** A channel goes off (its receiver answered 410 Gone). */
  async deactivate(id: number, channel: Channel) {
    await NotificationConfig.query()
      .where('id', id)
      .update({ [ACTIVE_COLUMN[channel]]: false, updated_at: new Date() })
  }

  /** Desasociar: the configurations the operator owned in the agency move to another. */
  async moveOwner(agencyId: number, fromOperatorId: number, toOperatorId: number, tx?: Tx) {
    await (tx ?? db)
      .from('notification_configs')
      .where('agency_id', agencyId)
      .where('owner_operator_id', fromOperatorId)
      .update({ owner_operator_id: toOperatorId, updated_at: new Date() })
  }
}
