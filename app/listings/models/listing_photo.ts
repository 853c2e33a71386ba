import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { AppScoped } from '#core/auth/app_scoped'

export type PhotoState = 'pending' | 'ready' | 'rejected'

/** One photo of a listing: its source URL and, once processed, the stored JPEG and thumbnail. */
export default class ListingPhoto extends AppScoped(BaseModel) {
  static table = 'listing_photos'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare listingId: number

  @column()
  declare position: number

  @column()
  declare sourceUrl: string

  @column()
  declare state: PhotoState

  @column()
  declare reason: string | null

  @column()
  declare storageKey: string | null

  @column()
  declare thumbnailKey: string | null

  @column()
  declare width: number | null

  @column()
  declare height: number | null

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime
}
