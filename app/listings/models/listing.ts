import { BaseModel, column } from '@adonisjs/lucid/orm'
import { compose } from '@adonisjs/core/helpers'
import { AppScoped } from '#core/auth/app_scoped'
import { Row } from '#core/database/row'

export type ListingState = 'active' | 'suspended' | 'archived'
export type Exposure = 'high' | 'medium' | 'low'
export type Spec = { name: string; value: string }

const money = {
  // numeric(14,2) comes back from pg as a string.
  consume: (value: string | null) => (value === null ? null : Number(value)),
}

/** A vehicle an app publishes for an agency. */
export default class Listing extends compose(BaseModel, AppScoped, Row) {
  static table = 'listings'

  @column()
  declare agencyId: number

  @column()
  declare adminEmail: string

  @column()
  declare externalId: string

  @column()
  declare refStock: string | null

  @column()
  declare state: ListingState

  @column()
  declare revision: number

  @column()
  declare exposure: Exposure

  @column()
  declare operatorId: number

  @column()
  declare operatorEmail: string

  @column()
  declare brandId: number | null

  @column()
  declare modelId: number | null

  @column()
  declare versionId: number | null

  @column()
  declare brandName: string

  @column()
  declare modelName: string

  @column()
  declare versionName: string

  @column()
  declare bodyType: string | null

  @column()
  declare transmission: string

  @column()
  declare propulsion: string

  @column()
  declare year: number

  @column()
  declare mileage: number

  @column()
  declare colour: string | null

  @column()
  declare description: string | null

  @column({ prepare: (value: Spec[]) => JSON.stringify(value) })
  declare customSpecs: Spec[]

  @column()
  declare priceCurrency: string | null

  @column(money)
  declare priceAmount: number | null

  @column()
  declare downPaymentCurrency: string | null

  @column(money)
  declare downPaymentAmount: number | null

  @column()
  declare installmentCurrency: string | null

  @column(money)
  declare installmentAmount: number | null

  @column()
  declare warrantyCertificate: boolean

  @column()
  declare regionId: number | null

  @column()
  declare cityId: number | null

  @column()
  declare regionName: string | null

  @column()
  declare cityName: string | null

  @column()
  declare address: string | null

  @column()
  declare phone: string | null

  @column()
  declare slug: string

  /** Storage keys of the ready photos, in order (kept by the photo writes). */
  @column({ prepare: (value: string[]) => JSON.stringify(value) })
  declare photoKeys: string[]

  /** Photos in any state (the spec's "number of photos already on the listing"). */
  @column()
  declare photoCount: number
}

/** The stored fields of a listing, as a plain object (what reads hand to transformers). */
export type ListingData = Pick<
  Listing,
  | 'id'
  | 'appId'
  | 'agencyId'
  | 'adminEmail'
  | 'externalId'
  | 'refStock'
  | 'state'
  | 'revision'
  | 'exposure'
  | 'operatorId'
  | 'operatorEmail'
  | 'brandId'
  | 'modelId'
  | 'versionId'
  | 'brandName'
  | 'modelName'
  | 'versionName'
  | 'bodyType'
  | 'transmission'
  | 'propulsion'
  | 'year'
  | 'mileage'
  | 'colour'
  | 'description'
  | 'customSpecs'
  | 'priceCurrency'
  | 'priceAmount'
  | 'downPaymentCurrency'
  | 'downPaymentAmount'
  | 'installmentCurrency'
  | 'installmentAmount'
  | 'warrantyCertificate'
  | 'regionId'
  | 'cityId'
  | 'regionName'
  | 'cityName'
  | 'address'
  | 'phone'
  | 'slug'
  | 'photoKeys'
  | 'photoCount'
>
