import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import { Row } from '#core/database/row'
import { Located } from './located.js'

export type InvitationState = 'pending' | 'accepted' | 'expired'

/** An app's invitation to register an agency; the token is stored as its SHA-256. */
export default class Invitation extends compose(BaseModel, AppScoped, Row, Located) {
  static table = 'invitations'

  /** Always lower-cased. */
  @column()
  declare adminEmail: string

  @column()
  declare tradeName: string

  @column()
  declare phone: string | null

  @column()
  declare phoneIsWhatsapp: boolean

  @column()
  declare adminFirstName: string | null

  @column()
  declare adminLastName: string | null

  @column({ serializeAs: null })
  declare tokenNonce: string

  @column({ serializeAs: null })
  declare tokenHash: string

  @column()
  declare mailSequence: number

  @column()
  declare mailedSequence: number

  @column()
  declare state: InvitationState

  @column.dateTime()
  declare sentAt: DateTime

  @column.dateTime()
  declare expiresAt: DateTime

  @column.dateTime()
  declare remindedAt: DateTime | null

  /** When its last mail (invitation or reminder) was queued: the mail throttle's clock. */
  @column.dateTime()
  declare lastMailedAt: DateTime | null

  @column.dateTime()
  declare acceptedAt: DateTime | null

  @column()
  declare agencyId: number | null

  /** When the `invitaciones` app event was queued (null: still owed). */
  @column.dateTime()
  declare eventQueuedAt: DateTime | null

  get isOverdue() {
    return this.state === 'pending' && this.expiresAt <= DateTime.now()
  }
}
