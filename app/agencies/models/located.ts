/*
 * Where a place is (region, city, street address): operators, branches and
 * invitations store the same three nullable columns.
 */
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'

export function Located<T extends NormalizeConstructor<typeof BaseModel>>(superclass: T) {
  class Placed extends superclass {
    @column()
    declare regionId: number | null

    @column()
    declare cityId: number | null

    @column()
    declare address: string | null
  }
  return Placed
}
