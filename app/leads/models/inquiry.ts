import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { inquiryWebhookId } from '#leads/services/sid_pool'

/** Money as stored in snapshots. */
export type Money = { currency: string; amount: number }

/** The vehicle as it was when the inquiry arrived (Auto of docs/spec.md §2.11). */
export type VehicleSnapshot = {
  externalId: string
  refStock: string | null
  brand: string | null
  model: string | null
  version: string | null
  versionYear: number | null
  mileage: number | null
  color: string | null
  bodyType: string | null
  condition: string | null
  price: Money | null
  downPayment: Money | null
  installment: Money | null
}

/** InfoOperacion of the buyer, in code names. */
export type OperationInfo = {
  tradeIn: { brand: string | null; model: string | null; versionYear: number | null } | null
  financing: { downPayment: Money | null; installment: Money | null } | null
  wantsInsuranceQuote: boolean | null
}

const json = {
  prepare: (value: unknown) =>
    value === null || value === undefined ? null : JSON.stringify(value),
}

/**
 * What the wire shapes of an inquiry read (app/leads/transformers): a model
 * has it, and so has a row of a list, read without hydrating models.
 */
export type InquiryFields = Pick<
  Inquiry,
  | 'sid'
  | 'agencyId'
  | 'kind'
  | 'origin'
  | 'externalId'
  | 'vehicle'
  | 'interest'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'documentId'
  | 'province'
  | 'city'
  | 'comment'
  | 'operationInfo'
  | 'operatorEmail'
> & { receivedAt: DateTime | Date }

/**
 * An inquiry as the intake writes it (ReceiveInquiry): a plain object, no
 * model hydrated or saved through Lucid, that the wire shapes, the fan-out and
 * the events read.
 */
export type ReceivedInquiry = InquiryFields &
  Pick<
    Inquiry,
    | 'id'
    | 'appId'
    | 'sourceAppId'
    | 'listingId'
    | 'versionId'
    | 'operatorId'
    | 'resendOpen'
    | 'resendClosesAt'
  > & { receivedAt: DateTime }

/** Standard Webhooks message id of an inquiry's webhook (kept here for the model's readers; defined with the sid). */
export { inquiryWebhookId }

/**
 * A buyer inquiry. Visibility is not a plain app scope: `appId` is the app that
 * published the listing, null for catalogue inquiries (seen by the apps the
 * agency lets receive other leads) — queries state that condition explicitly.
 */
export default class Inquiry extends BaseModel {
  static table = 'inquiries'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare sid: string

  @column()
  declare appId: number | null

  @column()
  declare sourceAppId: number | null

  @column()
  declare agencyId: number

  @column()
  declare listingId: number | null

  @column()
  declare versionId: number | null

  @column()
  declare operatorId: number | null

  @column()
  declare operatorEmail: string | null

  @column()
  declare kind: 'listing' | 'catalog'

  @column()
  declare origin: string

  @column()
  declare externalId: string

  @column(json)
  declare vehicle: VehicleSnapshot

  @column()
  declare interest: string | null

  @column()
  declare firstName: string | null

  @column()
  declare lastName: string | null

  @column()
  declare email: string | null

  @column()
  declare phone: string | null

  @column()
  declare documentId: string | null

  @column()
  declare province: string | null

  @column()
  declare city: string | null

  @column()
  declare comment: string | null

  @column(json)
  declare operationInfo: OperationInfo | null

  @column.dateTime()
  declare receivedAt: DateTime

  @column()
  declare resendOpen: boolean

  /** When the buyer's fields were suppressed (docs/design.md §16); null while they are held. */
  @column.dateTime()
  declare buyerErasedAt: DateTime | null

  @column.dateTime()
  declare resendClosesAt: DateTime

  /** Standard Webhooks message id: the same for every try and every resend. */
  get webhookId() {
    return inquiryWebhookId(this.sid)
  }
}
