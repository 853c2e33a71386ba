/*
 * The columns most tables share — a serial `id` key and the `created_at` /
 * `updated_at` pair: models mix this in (through `compose`) instead of
 * declaring them again.
 */
import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'

export function Row<T extends NormalizeConstructor<typeof BaseModel>>(superclass: T) {
  class Stored extends superclass {
    @column({ isPrimary: true })
    declare id: number

    @column.dateTime({ autoCreate: true })
    declare createdAt: DateTime

    @column.dateTime({ autoCreate: true, autoUpdate: true })
    declare updatedAt: DateTime
  }
  return Stored
}
