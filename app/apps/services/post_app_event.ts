/*
 * The one way an app event leaves the service: a POST to the subscription's
 * Callback with its custom headers and the Standard Webhooks headers (signed
 * when a Secret is set), through the SSRF-safe outbound client, redirects not
 * followed. Used by the `apps.webhook` deliveries and by the test event.
 */
import type { AppWebhookRow } from '#apps/stores/app_webhook_store'
import outbound from '#core/outbound/http_client'
import { openSecret, signWebhook } from '#core/outbound/signer'
import { safeHeaders } from '#core/outbound/custom_header'

export async function postAppEvent(
  subscription: Pick<AppWebhookRow, 'callback' | 'secret' | 'headers'>,
  message: { id: string; payload: unknown },
  timeoutMs = 15_000
) {
  const body = JSON.stringify(message.payload)
  const secret = openSecret(subscription.secret)
  const timestamp = Math.floor(Date.now() / 1000)
  const signed = secret
    ? signWebhook({ id: message.id, timestamp, body, secret })
    : { 'webhook-id': message.id, 'webhook-timestamp': String(timestamp) }
  return outbound.request(subscription.callback, {
    method: 'POST',
    headers: {
      ...safeHeaders(subscription.headers),
      'content-type': 'application/json; charset=utf-8',
      ...signed,
    },
    body,
    timeoutMs,
    maxRedirects: 0,
    maxBytes: 64 * 1024,
  })
}
