/*
 * Visitor hashes are needed only while their day can still be visited:
 * everything older than yesterday is deleted (privacy and table size).
 */
import db from '@adonisjs/lucid/services/db'
import { shiftDay, today } from './visit_clock.js'

export default class PruneVisitors {
  async execute(day: string = today()): Promise<void> {
    await db.from('listing_visitors').where('day', '<', shiftDay(day, -1)).delete()
  }
}
