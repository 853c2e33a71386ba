import { DateTime } from 'luxon'
import { BaseModel, column, hasMany } from '@adonisjs/lucid/orm'
import type { HasMany } from '@adonisjs/lucid/types/relations'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import DeliveryAttempt from './delivery_attempt.js'

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dead' | 'disabled'

/** One outbound message (webhook, hook or mail) and where its retries stand. */
export default class Delivery extends compose(BaseModel, AppScoped) {
  static table = 'deliveries'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare channel: string

  @column()
  declare ownerType: string

  @column()
  declare ownerId: string

  @column()
  declare target: string

  @column()
  declare status: DeliveryStatus

  @column()
  declare attemptCount: number

  @column()
  declare roundAttempts: number

  @column.dateTime()
  declare nextAttemptAt: DateTime | null

  @column()
  declare messageId: string

  @column({ prepare: (value: unknown) => JSON.stringify(value) })
  declare payload: any

  @column()
  declare queue: string

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime()
  declare deliveredAt: DateTime | null

  @column()
  declare lastError: string | null

  /** The job of a try in flight (cleared when its outcome is recorded). */
  @column()
  declare claimJobId: string | null

  @hasMany(() => DeliveryAttempt)
  declare attempts: HasMany<typeof DeliveryAttempt>
}
