/*
 * GET /v3/eventos (docs/design.md §14): the calling app's events of the last
 * 30 days, oldest first, 100 a page. Order and cursor follow the writing
 * transaction's id (`tx`, then `id`), and only events of transactions below
 * the oldest one still running (`pg_snapshot_xmin`) are listed: an event
 * whose transaction commits late cannot fall behind a cursor already handed
 * out (ordering by time could skip it). The cursor is opaque to the app:
 * base64url of `<tx>.<id>` of the last event returned.
 */
import db from '@adonisjs/lucid/services/db'
import type { Caller } from '#core/auth/app_scoped'
import { fail, ok, type Result } from '#core/result'
import type { AppTopic } from '#apps/models/app_webhook'
import AppEvent from '#apps/models/app_event'

export const HISTORY_DAYS = 30
export const HISTORY_PAGE = 100

export type Cursor = { tx: string; id: string }

export type HistoryPage = { events: AppEvent[]; next: string | null }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.tx}.${cursor.id}`).toString('base64url')
}

export function decodeCursor(value: string): Cursor | null {
  const [tx, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('.')
  if (rest.length > 0 || !/^\d{1,19}$/.test(tx ?? '') || !UUID.test(id ?? '')) return null
  return { tx, id }
}

export default class EventHistory {
  async page(
    caller: Caller,
    query: { desde?: string; topico?: AppTopic }
  ): Promise<Result<HistoryPage, 'bad_cursor'>> {
    const after = query.desde === undefined ? null : decodeCursor(query.desde)
    if (query.desde !== undefined && !after) return fail('bad_cursor')
    const rows = await AppEvent.forApp(caller)
      .select('*')
      .select(db.raw('tx::text as cursor_tx'))
      .whereRaw('tx < pg_snapshot_xmin(pg_current_snapshot())')
      .whereRaw(`created_at > now() - make_interval(days => ?)`, [HISTORY_DAYS])
      .if(query.topico, (q) => q.where('topic', query.topico!))
      .if(after, (q) => q.whereRaw(`(tx, id) > (?::xid8, ?::uuid)`, [after!.tx, after!.id]))
      .orderBy('tx', 'asc')
      .orderBy('id', 'asc')
      .limit(HISTORY_PAGE)
    const last = rows.at(-1)
    const next = last ? encodeCursor({ tx: last.$extras.cursor_tx, id: last.id }) : null
    return ok({ events: rows, next })
  }

  /** Drops events past the history window (the `apps.events-prune` cron). */
  async prune() {
    return db
      .from('app_events')
      .whereRaw(`created_at < now() - make_interval(days => ?)`, [HISTORY_DAYS])
      .delete()
  }
}
