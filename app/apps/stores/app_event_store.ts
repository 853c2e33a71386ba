/*
 * `app_events`, the apps' outbox and history (docs/design.md §14).
 */
import db from '@adonisjs/lucid/services/db'
import AppEvent from '#apps/models/app_event'
import type { AppTopic } from '#apps/topics'
import { poolQuery } from '#core/database/pool_query'
import type { Tx } from '#core/database/unit_of_work'

export type NewEvent = {
  id: string
  appId: number
  topic: AppTopic
  kind: string
  payload: Record<string, unknown>
}

/** An event as stored; `cursorTx` is its writing transaction's id, as text. */
export type EventRow = {
  id: string
  topic: AppTopic
  payload: unknown
  cursorTx: string
}

export type SubscriptionTarget = { id: number; callback: string }

export type HistoryQuery = {
  appId: number
  days: number
  limit: number
  topic?: AppTopic
  after: { tx: string; id: string } | null
}

export default class AppEventStore {
  /**
   * Records the event and reads the app's active subscription to its topic,
   * if any. Written out and prepared because it runs inside every write that
   * emits an event: one round trip, the outbox cost the bench measures
   * (docs/decisions/apps.md, "Outbox cost").
   */
  async record(event: NewEvent, tx: Tx): Promise<SubscriptionTarget | null> {
    // One round trip: the event row is written (a data-modifying WITH always
    // runs) and the app's active subscription to the topic, if any, read.
    const [subscription] = await poolQuery<SubscriptionTarget>(
      `with event as (
         insert into app_events (id, app_id, topic, kind, payload, created_at)
         values ($1, $2, $3, $4, $5, $6)
       )
       select id, callback from app_webhooks
       where app_id = $2 and topic = $3 and active
       limit 1`,
      [event.id, event.appId, event.topic, event.kind, JSON.stringify(event.payload), new Date()],
      { prepare: true, client: tx }
    )
    return subscription ?? null
  }

  /**
   * A page of the app's history: only events of transactions below the
   * oldest one still running (`pg_snapshot_xmin`), in (tx, id) order, so a
   * cursor never passes an event that commits later.
   */
  async page(query: HistoryQuery): Promise<EventRow[]> {
    const rows = await AppEvent.query()
      .where('app_id', query.appId)
      .select('*')
      .select(db.raw('tx::text as cursor_tx'))
      .whereRaw('tx < pg_snapshot_xmin(pg_current_snapshot())')
      .whereRaw(`created_at > now() - make_interval(days => ?)`, [query.days])
      .if(query.topic, (q) => q.where('topic', query.topic!))
      .if(query.after, (q) =>
        q.whereRaw(`(tx, id) > (?::xid8, ?::uuid)`, [query.after!.tx, query.after!.id])
      )
      .orderBy('tx', 'asc')
      .orderBy('id', 'asc')
      .limit(query.limit)
    return rows.map((row) => ({
      id: row.id,
      topic: row.topic,
      payload: row.payload,
      cursorTx: row.$extras.cursor_tx,
    }))
  }

  /**
   * Blanks the `Recurso.title` of the events about `hrefs` (or their
   * `…/entregas`): the title of an inquiry names its buyer (docs/design.md §16).
   * Index `app_events_resource`. Answers each changed event's id and app.
   */
  async forgetTitles(
    hrefs: string[],
    tx?: Tx
  ): Promise<{ id: string; appId: number; href: string }[]> {
    if (!hrefs.length) return []
    const all = [...hrefs, ...hrefs.map((href) => `${href}/entregas`)]
    const changed = await (tx ?? db).rawQuery(
      `update app_events set payload = jsonb_set(payload, '{Recurso,title}', '""'::jsonb)
        where (payload->'Recurso'->>'href') = any(?::text[])
        returning id, app_id, payload->'Recurso'->>'href' as href`,
      [all]
    )
    return changed.rows.map((row: any) => ({
      id: row.id,
      appId: row.app_id,
      href: String(row.href).replace(/\/entregas$/, ''),
    }))
  }

  /** Drops events older than `days`. */
  async prune(days: number): Promise<void> {
    await db
      .from('app_events')
      .whereRaw(`created_at < now() - make_interval(days => ?)`, [days])
      .delete()
  }
}
