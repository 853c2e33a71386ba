import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { AppTokensProvider } from '#apps/services/app_credentials'
import type { Ability } from '#core/auth/abilities'

/** A calling client of the API, authenticated by opaque bearer tokens. */
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

  static accessTokens = new AppTokensProvider({
    tokenableModel: App,
    table: 'app_tokens',
    type: 'app_token',
    prefix: 'dla_',
    tokenSecretLength: 40,
  })
}
