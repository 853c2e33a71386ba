import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** A person using the service. Stays a user when detached from an agency. */
export default class Operator extends BaseModel {
  static table = 'operators'

  @column({ isPrimary: true })
  declare id: number

  /** Always lower-cased. */
  @column()
  declare email: string

  @column()
  declare firstName: string

  @column()
  declare lastName: string

  @column()
  declare workPhone: string | null

  @column()
  declare whatsapp: string | null

  @column({ prepare: (value: string[]) => JSON.stringify(value) })
  declare otherPhones: string[]

  @column()
  declare regionId: number | null

  @column()
  declare cityId: number | null

  @column()
  declare address: string | null

  @column({ serializeAs: null })
  declare passwordHash: string | null

  /** Only administrators created through the API may be edited through it (docs/spec.md §2.9). */
  @column()
  declare createdViaApi: boolean

  @column()
  declare suspended: boolean

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column.dateTime({ autoCreate: true, autoUpdate: true })
  declare updatedAt: DateTime

  /** Every phone, work phone and WhatsApp first, without repeats. */
  get phones(): string[] {
    const all = [this.workPhone, this.whatsapp, ...(this.otherPhones ?? [])].filter(
      (p): p is string => !!p
    )
    return [...new Set(all)]
  }
}
