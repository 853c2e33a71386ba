/*
 * What the delivery handlers share: the configuration a delivery came from,
 * switching a channel off after the receiver answered 410 Gone, and the one
 * way each kind of channel (HTTP POST, mail) makes its try.
 */
import app from '@adonisjs/core/services/app'
import mail from '@adonisjs/mail/services/main'
import type { Message } from '@adonisjs/mail'
import {
  DeliveryService,
  mailMessageId,
  type Delivery,
  type DeliveryJob,
} from '#core/outbound/deliveries'
import outbound from '#core/outbound/http_client'
import { safeHeaders, type StoredHeader } from '#core/outbound/custom_header'
import type { JobContext } from '#core/jobs/types'
import type NotificationConfig from '#leads/models/notification_config'
import NotificationConfigStore from '#leads/stores/notification_config_store'
import type { Channel } from '#leads/services/notification_fanout'

/** What an HTTP channel sends: its own headers (after the configured custom ones) and body. */
export type HookRequest = {
  customHeaders: Array<StoredHeader | null>
  headers: Record<string, string>
  body: string
}

/**
 * One try of an HTTP channel: POSTs what `build` makes of the delivery and
 * its configuration (read at each try: a rotated secret applies to retries);
 * a 410 Gone switches the channel off.
 */
export async function attemptHook<P extends { configId: number }>(
  { deliveryId }: DeliveryJob,
  job: JobContext,
  channel: Channel,
  build: (delivery: Delivery, payload: P, config: NotificationConfig | null) => HookRequest
) {
  const configs = await app.container.make(NotificationConfigStore)
  const deliveries = await app.container.make(DeliveryService)
  let configId: number | undefined
  const result = await deliveries.attempt(
    deliveryId,
    async (delivery) => {
      const payload = delivery.payload as P
      configId = payload.configId
      const config = payload.configId ? await configs.find(payload.configId) : null
      const request = build(delivery, payload, config)
      const response = await outbound.request(delivery.target, {
        method: 'POST',
        headers: { ...safeHeaders(request.customHeaders), ...request.headers },
        body: request.body,
        timeoutMs: 15_000,
      })
      return { status: response.status, headers: response.headers }
    },
    job
  )
  // The receiver said the endpoint is gone for good: stop notifying it.
  if (result === 'gone' && configId) await configs.deactivate(configId, channel)
}

/** One try of a mail channel: sends what `compose` writes, under the delivery's own Message-ID. */
export async function attemptMail<P>(
  { deliveryId }: DeliveryJob,
  job: JobContext,
  compose: (delivery: Delivery, payload: P) => Promise<(message: Message) => void>
) {
  const deliveries = await app.container.make(DeliveryService)
  await deliveries.attempt(
    deliveryId,
    async (delivery) => {
      const write = await compose(delivery, delivery.payload as P)
      await mail.send((message) => {
        write(message)
        // The same Message-ID on every try: a mail sent again after a crash is recognisably the same message.
        message.messageId(mailMessageId(delivery))
        message.header('X-Delivery-Id', delivery.messageId)
      })
      return { status: 200 }
    },
    job
  )
}
