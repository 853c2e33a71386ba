import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A version (trim) of a model for one model year. */
export default class Version extends BaseModel {
  static table = 'versions'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare modelId: number

  @column()
  declare codename: string

  @column()
  declare name: string

  @column()
  declare year: number | null

  @column()
  declare propulsion: string | null

  @column()
  declare transmission: string | null

  /** Horsepower. */
  @column()
  declare power: number | null

  /** Cubic centimetres. */
  @column()
  declare displacement: number | null

  @column()
  declare bodyType: string | null

  @column()
  declare segment: string | null

  @column()
  declare newMarket: boolean
}
