/*
 * `app_webhooks`, the apps' subscriptions to topics: plain CRUD through the
 * Lucid model, always scoped to one app.
 */
import AppWebhook from '#apps/models/app_webhook'
import type { AppTopic, StoredHeader } from '#apps/topics'
import type { Tx } from '#core/database/unit_of_work'

export type AppWebhookRow = {
  id: number
  appId: number
  topic: AppTopic
  callback: string
  /** Sealed (`openSecret` to read). */
  secret: string | null
  description: string | null
  active: boolean
  headers: StoredHeader[]
}

/** What a save writes; `secret` undefined keeps the stored one. */
export type WebhookFields = Omit<AppWebhookRow, 'id' | 'appId' | 'topic' | 'secret'> & {
  secret?: string | null
}

const rowOf = (webhook: AppWebhook): AppWebhookRow => ({
  id: webhook.id,
  appId: webhook.appId,
  topic: webhook.topic,
  callback: webhook.callback,
  secret: webhook.secret,
  description: webhook.description,
  active: webhook.active,
  headers: webhook.headers,
})

export default class AppWebhookStore {
  async find(appId: number, topic: AppTopic, tx?: Tx): Promise<AppWebhookRow | null> {
    const webhook = await AppWebhook.forApp({ id: appId })
      .if(tx, (query) => query.useTransaction(tx!))
      .where('topic', topic)
      .first()
    return webhook ? rowOf(webhook) : null
  }

  async all(appId: number): Promise<AppWebhookRow[]> {
    const webhooks = await AppWebhook.forApp({ id: appId }).orderBy('topic', 'asc')
    return webhooks.map(rowOf)
  }

  async byId(id: number): Promise<AppWebhookRow | null> {
    const webhook = await AppWebhook.find(id)
    return webhook ? rowOf(webhook) : null
  }

  /**
   * Creates the subscription, or replaces the one that exists (locked until
   * `tx` ends). `created` says which.
   */
  async upsert(
    appId: number,
    topic: AppTopic,
    fields: WebhookFields,
    tx: Tx,
    existing: 'replace' | 'keep'
  ): Promise<{ row: AppWebhookRow; created: boolean } | null> {
    const current = await AppWebhook.forApp({ id: appId })
      .useTransaction(tx)
      .where('topic', topic)
      .forUpdate()
      .first()
    if (current && existing === 'keep') return null
    const webhook = current ?? new AppWebhook().merge({ appId, topic, secret: null })
    webhook.useTransaction(tx)
    const { secret, ...rest } = fields
    webhook.merge(rest)
    if (secret !== undefined) webhook.secret = secret
    await webhook.save()
    return { row: rowOf(webhook), created: !current }
  }

  /** Switches a subscription off (its receiver answered 410). */
  async deactivate(id: number): Promise<void> {
    await AppWebhook.query().where('id', id).update({ active: false, updated_at: new Date() })
  }
}
