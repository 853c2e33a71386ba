import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import { Row } from '#core/database/row'

/** A custom header as stored (`HeaderCustom0N` slot → index N-1). */
export type StoredHeader = { name: string; value: string } | null

const json = { prepare: (value: unknown) => JSON.stringify(value ?? []) }

/** Lead-notification channels of one agency for one app (docs/spec.md §2.14). */
export default class NotificationConfig extends compose(BaseModel, AppScoped, Row) {
  static table = 'notification_configs'

  @column()
  declare agencyId: number

  @column()
  declare ownerOperatorId: number | null

  @column()
  declare webhookCallback: string | null

  /** Encrypted; read through `SecretBox`, never serialized. */
  @column({ serializeAs: null })
  declare webhookSecret: string | null

  @column()
  declare webhookActive: boolean

  @column(json)
  declare webhookHeaders: StoredHeader[]

  @column()
  declare adfHookCallback: string | null

  @column()
  declare adfHookActive: boolean

  @column(json)
  declare adfHookHeaders: StoredHeader[]

  @column()
  declare adfMailEmail: string | null

  @column()
  declare adfMailActive: boolean

  @column(json)
  declare htmlMailBcc: string[]

  @column()
  declare htmlMailActive: boolean
}
