import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Which job holds a delivery's claim (issue 11): a crashed worker's job, run
 * again by pg-boss under the same id, may take its own claim over at once
 * instead of waiting for it to lapse. Cleared when the try is recorded.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('deliveries', (table) => {
      table.string('claim_job_id', 64).nullable()
    })
    // The sweeper and `deliveries:list --stuck` look at open deliveries only.
    this.schema.raw(
      "create index deliveries_open on deliveries (next_attempt_at) where status in ('pending', 'failed')"
    )
  }

  async down() {
    this.schema.raw('drop index if exists deliveries_open')
    this.schema.alterTable('deliveries', (table) => {
      table.dropColumn('claim_job_id')
    })
  }
}
