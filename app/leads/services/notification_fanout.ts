/*
 * Which deliveries an inquiry gets: one per active channel of every
 * notification configuration that sees it (the publishing app's; for
 * catalogue inquiries, each app the agency lets receive other leads).
 * Contents are rendered here, once, so that every retry sends the same bytes.
 */
import type { InquiryFields } from '#leads/models/inquiry'
import type NotificationConfig from '#leads/models/notification_config'
import { inquiryWebhookPayload } from '#leads/transformers/inquiry_transformer'
import { buildAdf } from '#leads/adf/adf_builder'
import { mailSubject } from '#leads/mail/inquiry_mail'

export const CHANNELS = {
  webhook: { queue: 'leads.webhook', wire: 'PublicacionConsultadaWebHook' },
  adfHook: { queue: 'leads.adf-hook', wire: 'PublicacionConsultadaAdfHook' },
  adfMail: { queue: 'leads.adf-mail', wire: 'PublicacionConsultadaAdfMail' },
  htmlMail: { queue: 'leads.html-mail', wire: 'PublicacionConsultadaHtmlMail' },
} as const

export type Channel = keyof typeof CHANNELS

export type FanoutContext = {
  inquiry: InquiryFields
  agency: { adminMail: string; tradeName: string }
  operator: { email: string; firstName: string; lastName: string } | null
}

/** What the fan-out reads of a notification configuration (a model, or a row the intake read with its insert). */
export type FanoutConfig = Pick<
  NotificationConfig,
  | 'id'
  | 'appId'
  | 'webhookActive'
  | 'webhookCallback'
  | 'adfHookActive'
  | 'adfHookCallback'
  | 'adfMailActive'
  | 'adfMailEmail'
  | 'htmlMailActive'
  | 'htmlMailBcc'
>

export type PlannedDelivery = {
  channel: Channel
  appId: number
  target: string
  payload: Record<string, unknown>
  queue: string
}

/** The body of the `PublicacionConsultada` webhook, as sent (a string keeps key order and bytes stable). */
export function webhookBody(context: FanoutContext, resend = false) {
  const payload = inquiryWebhookPayload(context.inquiry, context.agency.adminMail, {
    resend,
  })
  return { payload, body: JSON.stringify(payload) }
}

export function planDeliveries(context: FanoutContext, configs: FanoutConfig[]): PlannedDelivery[] {
  const planned: PlannedDelivery[] = []
  let adf: string | undefined
  const adfXml = () => (adf ??= buildAdf(context))
  for (const config of configs) {
    const appId = config.appId
    if (config.webhookActive && config.webhookCallback) {
      const { body } = webhookBody(context)
      planned.push({
        channel: 'webhook',
        appId,
        target: config.webhookCallback,
        payload: { configId: config.id, body },
        queue: CHANNELS.webhook.queue,
      })
    }
    if (config.adfHookActive && config.adfHookCallback) {
      planned.push({
        channel: 'adfHook',
        appId,
        target: config.adfHookCallback,
        payload: { configId: config.id, xml: adfXml() },
        queue: CHANNELS.adfHook.queue,
      })
    }
    if (config.adfMailActive && config.adfMailEmail) {
      planned.push({
        channel: 'adfMail',
        appId,
        target: config.adfMailEmail,
        payload: { configId: config.id, subject: mailSubject(context), xml: adfXml() },
        queue: CHANNELS.adfMail.queue,
      })
    }
    if (config.htmlMailActive && config.htmlMailBcc.length > 0) {
      const target = config.htmlMailBcc.join(', ')
      planned.push({
        channel: 'htmlMail',
        appId,
        target: target.length > 1024 ? `${target.slice(0, 1021)}...` : target,
        payload: {
          configId: config.id,
          bcc: config.htmlMailBcc,
          subject: mailSubject(context),
          agency: context.agency,
        },
        queue: CHANNELS.htmlMail.queue,
      })
    }
  }
  return planned
}
