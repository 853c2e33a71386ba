import { inject } from '@adonisjs/core'
import type { AppTopic, StoredHeader } from '#apps/topics'
import AppWebhookStore, { type AppWebhookRow } from '#apps/stores/app_webhook_store'
import type { AppWebhookInput } from '#apps/validators/app_webhook_validator'
import type { Caller } from '#core/auth/app_scoped'
import { sealSecret } from '#core/outbound/signer'
import { fail, ok, type Result } from '#core/result'
import { retryOnUniqueViolation } from '#core/database/errors'
import { UnitOfWork } from '#core/database/unit_of_work'

export type SaveMode = 'create' | 'replace'
export type SaveFailure = 'subscription_exists'

const header = (value: AppWebhookInput['HeaderCustom01']): StoredHeader =>
  value ? { name: value.Name, value: value.Value } : null

/**
 * Creates (POST) or creates-or-replaces (PUT) the app's subscription to a
 * topic. `create` on an existing subscription fails with `subscription_exists`.
 */
@inject()
export default class SaveAppWebhook {
  constructor(
    private webhooks: AppWebhookStore,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(
    caller: Caller,
    topic: AppTopic,
    input: AppWebhookInput,
    mode: SaveMode
  ): Promise<Result<{ webhook: AppWebhookRow; created: boolean }, SaveFailure>> {
    // null or absent keeps the stored Secret (undefined); '' removes it.
    const secret =
      input.Secret === ''
        ? null
        : typeof input.Secret === 'string'
          ? sealSecret(input.Secret)
          : undefined
    const fields = {
      callback: input.Callback,
      description: input.Description ?? null,
      active: input.Activo ?? true,
      headers: [
        header(input.HeaderCustom01),
        header(input.HeaderCustom02),
        header(input.HeaderCustom03),
      ],
      secret,
    }
    // Two concurrent first writes: the unique (app_id, topic) lets one win; the replay of the other
    // finds it, like a sequential request (POST → exists, PUT → replaced).
    return retryOnUniqueViolation(['app_webhooks_app_id_topic_unique'], () =>
      this.unitOfWork.run(async (tx) => {
        const saved = await this.webhooks.upsert(
          caller.id,
          topic,
          fields,
          tx,
          mode === 'create' ? 'keep' : 'replace'
        )
        if (!saved) return fail('subscription_exists')
        return ok({ webhook: saved.row, created: saved.created })
      })
    )
  }
}
