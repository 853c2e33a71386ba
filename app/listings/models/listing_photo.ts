import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import { Row } from '#core/database/row'

export type PhotoState = 'pending' | 'ready' | 'rejected'

/** One photo of a listing: its source URL and, once processed, the stored JPEG and thumbnail. */
export default class ListingPhoto extends compose(BaseModel, AppScoped, Row) {
  static table = 'listing_photos'

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
}
