/*
 * App-level events (docs/design.md §6, §9, §14). Another module calls, inside the
 * transaction of the write that causes the event:
 *
 *   await this.appEvents.emit(appId, 'publicaciones',
 *     { Tipo: 'FotoLista', Agencia, Recurso, Datos: {…} }, trx)
 *
 * (AppEvents injected.)
 *
 * The event is ALWAYS recorded (`app_events`, in `trx`: an outbox — nothing is
 * lost, nothing of a rolled-back change survives) for GET /v3/eventos. When the
 * app has an active subscription to the topic, an `apps.webhook` delivery is
 * created and queued in `trx` too (signed Standard Webhooks POST, retried per
 * docs/design.md §8) whose `webhook-id` is the event's Id. Returns the
 * delivery, or null.
 *
 * The delivered body is `{Id, Tipo, Momento, Topico, Agencia, Recurso, Datos}`
 * on every topic, `invitaciones` included (docs/design.md §19: one envelope, so
 * a receiver built against the test event or the history reads the real one).
 */
import { randomUUID } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { AppTopic } from '#apps/topics'
import AppEventStore, { type EventRow } from '#apps/stores/app_event_store'
import { DeliveryService } from '#core/outbound/deliveries'
import { APP_WEBHOOK_QUEUE } from '#apps/jobs'

export type AgencyOfEvent = { AdminMail: string; href: string }
export type ResourceOfEvent = { href: string; title: string }

/** What a cause passes; `Momento` defaults to now. */
export type EventInput = {
  Tipo: string
  Momento?: string | null
  Agencia?: AgencyOfEvent | null
  Recurso?: ResourceOfEvent | null
  Datos?: Record<string, unknown>
}

/** An event as the wire carries it (webhook body of the new topics, history entry). */
export type EventBody = {
  Id: string
  Tipo: string
  Momento: string
  Topico: string
  Agencia: AgencyOfEvent | null
  Recurso: ResourceOfEvent | null
  Datos: Record<string, unknown>
}

/** The full event of a stored row. */
export function eventBody(event: Pick<EventRow, 'id' | 'topic' | 'payload'>): EventBody {
  const payload = event.payload as EventInput
  return {
    Id: event.id,
    Tipo: payload.Tipo,
    Momento: payload.Momento!,
    Topico: event.topic,
    Agencia: payload.Agencia ?? null,
    Recurso: payload.Recurso ?? null,
    Datos: payload.Datos ?? {},
  }
}

@inject()
export default class AppEvents {
  constructor(
    private events: AppEventStore,
    private deliveries: DeliveryService
  ) {}

  async emit(appId: number, topic: AppTopic, input: EventInput, trx: TransactionClientContract) {
    const payload = { ...input, Momento: input.Momento ?? DateTime.now().toISO() }
    const event = { id: randomUUID(), topic, payload }
    const subscription = await this.events.record(
      { id: event.id, appId, topic, kind: input.Tipo, payload },
      trx
    )
    if (!subscription) return null
    return this.deliveries.create(
      {
        channel: `app.${topic}`,
        ownerType: 'app_webhook',
        ownerId: subscription.id,
        appId,
        target: subscription.callback,
        payload: eventBody(event),
        queue: APP_WEBHOOK_QUEUE,
        messageId: event.id,
      },
      trx
    )
  }

  /**
   * A buyer's data suppressed (docs/design.md §16): the events about `hrefs`
   * lose what named the buyer and their webhook deliveries are emptied, in
   * `trx`. Answers which app had an event about which href.
   */
  async forgetAbout(
    hrefs: string[],
    trx: TransactionClientContract
  ): Promise<{ appId: number; href: string }[]> {
    const events = await this.events.forgetTitles(hrefs, trx)
    if (events.length) await this.deliveries.forget({ messageIds: events.map((e) => e.id) }, trx)
    return events.map(({ appId, href }) => ({ appId, href }))
  }

  /** Emits the same event to each app (e.g. every app that sees an inquiry). */
  async emitEach(
    appIds: Iterable<number>,
    topic: AppTopic,
    input: EventInput,
    trx: TransactionClientContract
  ) {
    for (const appId of new Set(appIds)) await this.emit(appId, topic, input, trx)
  }
}
