import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import { Row } from '#core/database/row'
import type { AppTopic, StoredHeader } from '#apps/topics'

export { APP_TOPICS, isAppTopic, type AppTopic, type StoredHeader } from '#apps/topics'

/** An app's subscription to one topic of app-level events. */
export default class AppWebhook extends compose(BaseModel, AppScoped, Row) {
  static table = 'app_webhooks'

  @column()
  declare topic: AppTopic

  @column()
  declare callback: string

  /** Encrypted (`openSecret` to read); never serialized. */
  @column({ serializeAs: null })
  declare secret: string | null

  @column()
  declare description: string | null

  @column()
  declare active: boolean

  @column({ prepare: (value: StoredHeader[]) => JSON.stringify(value ?? []) })
  declare headers: StoredHeader[]
}
