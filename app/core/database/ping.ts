/*
 * `select 1`: whether the database answers (readiness, app/core/health).
 * Infrastructure, not domain SQL: it lives beside the pool.
 */
import db from '@adonisjs/lucid/services/db'

export async function ping() {
  await db.rawQuery('select 1')
}
