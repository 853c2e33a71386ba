/*
 * GET /v3/eventos (docs/design.md §14): the calling app's events of the last
 * 30 days, oldest first, 100 a page. Order and cursor follow the writing
 * transaction's id (`tx`, then `id`), and only events of transactions below
 * the oldest one still running (`pg_snapshot_xmin`) are listed: an event
 * whose transaction commits late cannot fall behind a cursor already handed
 * out (ordering by time could skip it). The cursor is opaque to the app:
 * base64url of `<tx>.<id>` of the last event returned.
 */
import { inject } from '@adonisjs/core'
import type { Caller } from '#core/auth/app_scoped'
import { fail, ok, type Result } from '#core/result'
import type { AppTopic } from '#apps/topics'
import AppEventStore, { type EventRow } from '#apps/stores/app_event_store'

export const HISTORY_DAYS = 30
export const HISTORY_PAGE = 100

export type Cursor = { tx: string; id: string }

export type HistoryPage = { events: EventRow[]; next: string | null }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.tx}.${cursor.id}`).toString('base64url')
}

export function decodeCursor(value: string): Cursor | null {
  const [tx, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('.')
  if (rest.length > 0 || !/^\d{1,19}$/.test(tx ?? '') || !UUID.test(id ?? '')) return null
  return { tx, id }
}

@inject()
export default class EventHistory {
  constructor(private events: AppEventStore) {}

  async page(
    caller: Caller,
    query: { desde?: string; topico?: AppTopic }
  ): Promise<Result<HistoryPage, 'bad_cursor'>> {
    const after = query.desde === undefined ? null : decodeCursor(query.desde)
    if (query.desde !== undefined && !after) return fail('bad_cursor')
    const rows = await this.events.page({
      appId: caller.id,
      days: HISTORY_DAYS,
      limit: HISTORY_PAGE,
      topic: query.topico,
      after,
    })
    const last = rows.at(-1)
    const next = last ? encodeCursor({ tx: last.cursorTx, id: last.id }) : null
    return ok({ events: rows, next })
  }

  /** Drops events past the history window (the `apps.events-prune` cron). */
  async prune() {
    await this.events.prune(HISTORY_DAYS)
  }
}
