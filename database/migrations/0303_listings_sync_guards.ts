import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What a stock sync needs to judge itself when it starts and while it runs
 * (docs/design.md §25): whether the caller confirmed the archives (the drop
 * guard is applied again to the archive list built when it starts), how many
 * times a worker started it at the same progress (a run that kills its worker
 * again and again is given up), and why it failed (a reason and its figures;
 * the wire words them). Expand only: new columns with constant defaults or
 * nullable, no lock beyond the ALTER's brief one.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw("set local lock_timeout = '3s'")
    this.schema.raw("set local statement_timeout = '30s'")
    this.schema.alterTable('listing_syncs', (table) => {
      table.boolean('confirm_archives').notNullable().defaultTo(false)
      // A simulation that a real run would need ConfirmarBajas for (docs/design.md §24).
      table.boolean('confirmation_required').notNullable().defaultTo(false)
      // Starts by a worker since `processed` was last `progress_mark`.
      table.integer('starts').notNullable().defaultTo(0)
      table.integer('progress_mark').nullable()
      // Why it ended `failed`: 'too_many_archives' | 'app_unavailable' | 'kept_failing' | 'gave_up'.
      table.string('failure', 20).nullable()
      table.jsonb('failure_details').nullable()
    })
  }

  async down() {
    this.schema.alterTable('listing_syncs', (table) => {
      table.dropColumns(
        'confirm_archives',
        'confirmation_required',
        'starts',
        'progress_mark',
        'failure',
        'failure_details'
      )
    })
  }
}
