/*
 * POST …/{sid}/resendwebhook: queues the inquiry's webhook again (same
 * `webhook-id`, `"Reenvio": true`) while its resend window is open; the ADF
 * hook, when active, goes again too with `prospect status="resend"`.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import { UnitOfWork, type Tx } from '#core/database/unit_of_work'
import { DeliveryService } from '#core/outbound/deliveries'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import type Inquiry from '#leads/models/inquiry'
import NotificationConfigStore from '#leads/stores/notification_config_store'
import { inquiryWebhookPayload } from '#leads/transformers/inquiry_transformer'
import { buildAdf } from '#leads/adf/adf_builder'
import { CHANNELS, type Channel } from './notification_fanout.js'
import InquiryReader from './inquiry_reader.js'

export type ResendFailure =
  'inquiry_not_found' | 'buyer_erased' | 'resend_window_closed' | 'no_active_webhook'

@inject()
export default class ResendWebhook {
  constructor(
    private reader: InquiryReader,
    private agencies: AgencyDirectory,
    private deliveries: DeliveryService,
    private configs: NotificationConfigStore,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(appId: number, agency: AgencyView, sid: string) {
    const audience = { appId, agencyId: agency.id, receivesOtherLeads: agency.receivesOtherLeads }
    const inquiry = await this.reader.find(audience, sid)
    if (!inquiry) return fail('inquiry_not_found') as Result<never, ResendFailure>
    // The buyer's data was suppressed (docs/design.md §16): nothing is left to send.
    if (inquiry.buyerErasedAt) return fail('buyer_erased')
    if (!inquiry.resendOpen || inquiry.resendClosesAt <= DateTime.now()) {
      return fail('resend_window_closed')
    }
    const config = await this.configs.of(appId, agency.id)
    if (!config?.webhookActive || !config.webhookCallback) return fail('no_active_webhook')

    const payload = inquiryWebhookPayload(inquiry, agency.adminMail, {
      resend: true,
      at: DateTime.now(),
    })
    const body = JSON.stringify(payload)
    const operators = inquiry.operatorId
      ? await this.agencies.operators([inquiry.operatorId])
      : null
    const operator = inquiry.operatorId ? operators?.get(inquiry.operatorId) : null
    await this.unitOfWork.run(async (trx) => {
      await this.#requeue(trx, inquiry, appId, 'webhook', config.webhookCallback!, {
        configId: config.id,
        body,
      })
      if (config.adfHookActive && config.adfHookCallback) {
        const xml = buildAdf({ inquiry, agency, operator: operator ?? null, resend: true })
        await this.#requeue(trx, inquiry, appId, 'adfHook', config.adfHookCallback, {
          configId: config.id,
          xml,
        })
      }
    })
    return ok({ callback: config.webhookCallback, payload })
  }

  /** The channel's delivery of this inquiry for this app goes again (a new one if it never had one). */
  async #requeue(
    trx: Tx,
    inquiry: Inquiry,
    appId: number,
    channel: Channel,
    target: string,
    payload: Record<string, unknown>
  ) {
    const existing = await this.deliveries.latest(
      { ownerType: 'inquiry', ownerId: inquiry.id, channel, appId },
      trx
    )
    if (existing) return this.deliveries.resend(existing.id, trx, { payload, target })
    await this.deliveries.create(
      {
        channel,
        ownerType: 'inquiry',
        ownerId: inquiry.id,
        appId,
        target,
        payload,
        queue: CHANNELS[channel].queue,
        messageId: inquiry.webhookId,
      },
      trx
    )
  }
}
