/*
 * POST /v3/appnotificaciones/{topic}/prueba (docs/design.md §14): one signed
 * `Prueba` event to the subscription now, through the same sender as the
 * deliveries, with a bounded wait. Not recorded in the history and not
 * retried: it answers whether the receiver works, it is not something that
 * happened to the app's data (docs/decisions/apps.md, events).
 */
import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import type { Caller } from '#core/auth/app_scoped'
import { path } from '#core/http/links'
import type { AppTopic } from '#apps/topics'
import AppWebhookReader from '#apps/services/app_webhook_reader'
import { postAppEvent } from '#apps/services/post_app_event'
import type { EventBody } from '#apps/services/app_events'

export const TEST_TIMEOUT_MS = 10_000

export type TestOutcome = { status: number | null; durationMs: number; error: string | null }

@inject()
export default class SendTestEvent {
  constructor(private reader: AppWebhookReader) {}

  /** Null when the app has no subscription to the topic. */
  async execute(caller: Caller, topic: AppTopic): Promise<TestOutcome | null> {
    const subscription = await this.reader.find(caller, topic)
    if (!subscription) return null
    const event: EventBody = {
      Id: randomUUID(),
      Tipo: 'Prueba',
      Momento: DateTime.now().toISO()!,
      Topico: topic,
      Agencia: null,
      Recurso: { href: path('appnotificaciones', topic), title: `Notificaciones de ${topic}` },
      Datos: {},
    }
    return probe(() =>
      postAppEvent(subscription, { id: event.Id, payload: event }, TEST_TIMEOUT_MS)
    )
  }
}

/**
 * One try of a test send, measured: the receiver's status (an error unless
 * 2xx), or the connection's failure (outbound code and message). Shared by the
 * lead-notification test (docs/design.md §19), so both answer alike.
 */
export async function probe(send: () => Promise<{ status: number }>): Promise<TestOutcome> {
  const started = performance.now()
  let status: number | null = null
  let error: string | null = null
  try {
    const response = await send()
    status = response.status
    if (status < 200 || status > 299) error = `HTTP ${status}`
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code
    const message = thrown instanceof Error ? thrown.message : String(thrown)
    error = (typeof code === 'string' ? `${code}: ` : '') + message.slice(0, 500)
  }
  return { status, durationMs: Math.round(performance.now() - started), error }
}
