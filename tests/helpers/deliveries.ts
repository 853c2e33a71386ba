/*
 * Outbound deliveries in functional tests (tests/functional/core/outbound/):
 * waiting for one to settle, counting its live jobs, short retries.
 */
import db from '@adonisjs/lucid/services/db'
import { settings } from '#core/settings'
import Delivery from '#core/outbound/models/delivery'
import { until } from '#tests/helpers/until'

/** Until the delivery is delivered, dead or disabled; with its attempts in order. */
export function settledDelivery(id: string, timeoutMs = 15_000) {
  return until(
    () =>
      Delivery.query()
        .where('id', id)
        .preload('attempts', (q) => q.orderBy('number'))
        .firstOrFail(),
    (delivery) => ['delivered', 'dead', 'disabled'].includes(delivery.status),
    timeoutMs
  )
}

/** Jobs that wait for or run the delivery (on `queue`, or any queue). */
export async function liveDeliveryJobs(id: string, queue?: string) {
  const { rows } = await db.rawQuery(
    `select count(*)::int as n from pgboss.job
      where data->>'deliveryId' = ? and state in ('created', 'retry', 'active')
        ${queue ? 'and name = ?' : ''}`,
    queue ? [id, queue] : [id]
  )
  return rows[0].n as number
}

/**
 * Retries 0.1 s apart, three of them, for one test (`group.each.setup`); the
 * returned cleanup restores the schedule and `outboundAllowPrivate`.
 */
export function shortRetries() {
  const initial = { allow: settings.outboundAllowPrivate, schedule: settings.deliveryRetrySchedule }
  settings.deliveryRetrySchedule = [0.1, 0.1, 0.1]
  return () => {
    settings.outboundAllowPrivate = initial.allow
    settings.deliveryRetrySchedule = initial.schedule
  }
}
