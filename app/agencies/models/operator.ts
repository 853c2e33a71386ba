import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { Row } from '#core/database/row'
import { Located } from './located.js'

/** A person using the service. Stays a user when detached from an agency. */
export default class Operator extends compose(BaseModel, Row, Located) {
  static table = 'operators'

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

  @column({ serializeAs: null })
  declare passwordHash: string | null

  /** Only administrators created through the API may be edited through it (docs/spec.md §2.9). */
  @column()
  declare createdViaApi: boolean

  @column()
  declare suspended: boolean

  /** Every phone, work phone and WhatsApp first, without repeats. */
  get phones(): string[] {
    const all = [this.workPhone, this.whatsapp, ...(this.otherPhones ?? [])].filter(
      (p): p is string => !!p
    )
    return [...new Set(all)]
  }
}
