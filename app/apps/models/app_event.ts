import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import type { AppTopic } from './app_webhook.js'

/** One event addressed to an app (docs/design.md §14); `id` is its `webhook-id`. */
export default class AppEvent extends compose(BaseModel, AppScoped) {
  static table = 'app_events'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare topic: AppTopic

  @column()
  declare kind: string

  @column({ prepare: (value: unknown) => JSON.stringify(value) })
  declare payload: any

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime
}
