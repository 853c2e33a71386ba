import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** One try of a delivery: what the receiver answered, or why it could not. */
export default class DeliveryAttempt extends BaseModel {
  static table = 'delivery_attempts'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare deliveryId: string

  @column()
  declare number: number

  @column.dateTime()
  declare attemptedAt: DateTime

  @column()
  declare statusCode: number | null

  @column()
  declare durationMs: number

  @column()
  declare error: string | null
}
