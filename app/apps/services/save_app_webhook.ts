import db from '@adonisjs/lucid/services/db'
import AppWebhook, { type AppTopic, type StoredHeader } from '#apps/models/app_webhook'
import type { AppWebhookInput } from '#apps/validators/app_webhook_validator'
import type { Caller } from '#core/auth/app_scoped'
import { sealSecret } from '#core/outbound/signer'
import { fail, ok, type Result } from '#core/result'
import { retryOnUniqueViolation } from '#core/database/errors'

export type SaveMode = 'create' | 'replace'
export type SaveFailure = 'subscription_exists'

const header = (value: AppWebhookInput['HeaderCustom01']): StoredHeader =>
  value ? { name: value.Name, value: value.Value } : null

/**
 * Creates (POST) or creates-or-replaces (PUT) the app's subscription to a
 * topic. `create` on an existing subscription fails with `subscription_exists`.
 */
export default class SaveAppWebhook {
  async execute(
    caller: Caller,
    topic: AppTopic,
    input: AppWebhookInput,
    mode: SaveMode
  ): Promise<Result<{ webhook: AppWebhook; created: boolean }, SaveFailure>> {
    // Two concurrent first writes: the unique (app_id, topic) lets one win; the replay of the other
    // finds it, like a sequential request (POST → exists, PUT → replaced).
    return retryOnUniqueViolation(['app_webhooks_app_id_topic_unique'], () =>
      db.transaction(async (trx) => {
        const current = await AppWebhook.forApp(caller)
          .useTransaction(trx)
          .where('topic', topic)
          .forUpdate()
          .first()
        if (current && mode === 'create') return fail('subscription_exists')
        const webhook = current ?? new AppWebhook().merge({ appId: caller.id, topic })
        webhook.useTransaction(trx)
        webhook.merge({
          callback: input.Callback,
          description: input.Description ?? null,
          active: input.Activo ?? true,
          headers: [
            header(input.HeaderCustom01),
            header(input.HeaderCustom02),
            header(input.HeaderCustom03),
          ],
        })
        // null or absent keeps the stored Secret; '' removes it.
        if (input.Secret === '') webhook.secret = null
        else if (typeof input.Secret === 'string') webhook.secret = sealSecret(input.Secret)
        else if (!current) webhook.secret = null
        await webhook.save()
        return ok({ webhook, created: !current })
      })
    )
  }
}
