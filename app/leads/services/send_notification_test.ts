/*
 * POST /v3/notificaciones/{adminmail}/prueba{?canal} (docs/design.md §19): one
 * test send to the configured lead webhook (a signed `Prueba` JSON payload) or
 * ADF hook (a valid ADF document marked as a test), now, with the channel's
 * custom headers, through the SSRF-safe outbound client, redirects not
 * followed. Also when the channel is inactive: one tests before switching on.
 * Not recorded, not retried; it answers like the app subscriptions' test event
 * (`probe`, #apps/services/send_test_event).
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import outbound from '#core/outbound/http_client'
import { newMessageId, openSecret, signWebhook } from '#core/outbound/signer'
import { safeHeaders } from '#core/outbound/custom_header'
import { fail, ok, type Result } from '#core/result'
import { probe, TEST_TIMEOUT_MS, type TestOutcome } from '#apps/services/send_test_event'
import NotificationConfigStore from '#leads/stores/notification_config_store'
import { notificationTestPayload } from '#leads/transformers/notification_config_transformer'
import { buildAdfTest } from '#leads/adf/adf_builder'

/** The channels that have a callback to test. */
export type TestChannel = 'webhook' | 'adfHook'

export type NotificationTestFailure = 'no_webhook' | 'no_adf_hook'

type Agency = { id: number; adminMail: string; tradeName: string }

@inject()
export default class SendNotificationTest {
  constructor(private configs: NotificationConfigStore) {}

  async execute(
    appId: number,
    agency: Agency,
    channel: TestChannel
  ): Promise<Result<TestOutcome, NotificationTestFailure>> {
    const config = await this.configs.of(appId, agency.id)
    const id = newMessageId()
    const timestamp = String(Math.floor(Date.now() / 1000))
    if (channel === 'webhook') {
      if (!config?.webhookCallback) return fail('no_webhook')
      const body = JSON.stringify(notificationTestPayload(agency.adminMail, DateTime.now()))
      const secret = openSecret(config.webhookSecret)
      const signed = secret
        ? signWebhook({ id, timestamp: Number(timestamp), body, secret })
        : { 'webhook-id': id, 'webhook-timestamp': timestamp }
      return ok(
        await this.send(config.webhookCallback, config.webhookHeaders, body, {
          'content-type': 'application/json; charset=utf-8',
          ...signed,
        })
      )
    }
    if (!config?.adfHookCallback) return fail('no_adf_hook')
    // The ADF hook has no Secret: its deliveries are not signed, and neither is its test.
    return ok(
      await this.send(config.adfHookCallback, config.adfHookHeaders, buildAdfTest(agency, id), {
        'content-type': 'application/xml; charset=utf-8',
        'webhook-id': id,
        'webhook-timestamp': timestamp,
      })
    )
  }

  private send(
    url: string,
    custom: Parameters<typeof safeHeaders>[0],
    body: string,
    headers: Record<string, string>
  ) {
    return probe(() =>
      outbound.request(url, {
        method: 'POST',
        headers: { ...safeHeaders(custom), ...headers },
        body,
        timeoutMs: TEST_TIMEOUT_MS,
        maxRedirects: 0,
        maxBytes: 64 * 1024,
      })
    )
  }
}
