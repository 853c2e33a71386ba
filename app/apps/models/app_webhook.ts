import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import { Row } from '#core/database/row'

/** A custom header as stored (`HeaderCustom0N` → slot N-1). */
export type StoredHeader = { name: string; value: string } | null

/** Topics an app can subscribe to (docs/design.md §9, §14). */
export const APP_TOPICS = ['invitaciones', 'publicaciones', 'consultas', 'entregas'] as const
export type AppTopic = (typeof APP_TOPICS)[number]

export function isAppTopic(value: string): value is AppTopic {
  return (APP_TOPICS as readonly string[]).includes(value)
}

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
