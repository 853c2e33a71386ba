/*
 * GET /v3/eventos (docs/design.md §14): the calling app's events of the last
 * 30 days, oldest first, 100 a page. The cursor is opaque to the app: the
 * (created_at in microseconds, id) of the last event returned, base64url —
 * exact at PostgreSQL's precision, stable under new inserts.
 */
import db from '@adonisjs/lucid/services/db'
import type { Caller } from '#core/auth/app_scoped'
import { fail, ok, type Result } from '#core/result'
import type { AppTopic } from '#apps/models/app_webhook'
import AppEvent from '#apps/models/app_event'

export const HISTORY_DAYS = 30
export const HISTORY_PAGE = 100

export type Cursor = { micros: string; id: string }

export type HistoryPage = { events: AppEvent[]; next: string | null }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.micros}.${cursor.id}`).toString('base64url')
}

export function decodeCursor(value: string): Cursor | null {
  const [micros, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('.')
  if (rest.length > 0 || !/^\d{1,17}$/.test(micros ?? '') || !UUID.test(id ?? '')) return null
  return { micros, id }
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
      .select(db.raw('(extract(epoch from created_at) * 1000000)::bigint::text as cursor_micros'))
      .whereRaw(`created_at > now() - make_interval(days => ?)`, [HISTORY_DAYS])
      .if(query.topico, (q) => q.where('topic', query.topico!))
      .if(after, (q) =>
        q.whereRaw(
          `(created_at, id) > (timestamptz 'epoch' + ?::bigint * interval '1 microsecond', ?::uuid)`,
          [after!.micros, after!.id]
        )
      )
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(HISTORY_PAGE)
    const last = rows.at(-1)
    const next = last ? encodeCursor({ micros: last.$extras.cursor_micros, id: last.id }) : null
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
