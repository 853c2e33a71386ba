import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { Ability } from '#core/auth/abilities'

/**
 * A calling client of the API, authenticated by opaque bearer tokens
 * (`app_tokens`, read and written by app/apps/stores/token_store.ts).
 */
export default class App extends BaseModel {
  static table = 'apps'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare name: string

  @column({ prepare: (value: string[]) => JSON.stringify(value) })
  declare abilities: Ability[]

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  /** Set while the app is disabled: none of its tokens authenticates. */
  @column.dateTime()
  declare disabledAt: DateTime | null
}
