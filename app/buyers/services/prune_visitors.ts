/*
 * Visitor hashes are needed only while their day can still be visited:
 * everything older than yesterday is deleted (privacy and table size).
 */
import { inject } from '@adonisjs/core'
import VisitStore from '#buyers/stores/visit_store'
import { shiftDay, today } from './visit_clock.js'

@inject()
export default class PruneVisitors {
  constructor(private store: VisitStore) {}

  async execute(day: string = today()): Promise<void> {
    await this.store.pruneVisitorsBefore(shiftDay(day, -1))
  }
}
