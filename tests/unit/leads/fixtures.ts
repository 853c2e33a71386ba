/*
 * What the leads unit specs share: an inquiry as loaded, its buyer, and a
 * notification configuration with every channel off unless given.
 */
import { DateTime } from 'luxon'
import Inquiry, { type VehicleSnapshot } from '#leads/models/inquiry'
import NotificationConfig from '#leads/models/notification_config'

/** The agency as a controller read it (an AgencyView) that receives other leads. */
export const AGENCY = {
  id: 7,
  adminMail: 'admin@agencia.example',
  tradeName: 'Agencia',
  suspended: false,
  receivesOtherLeads: true,
}

/** The buyer of a fixture inquiry (InquiryRequest['buyer'] in code names). */
export const BUYER = {
  interest: null as string | null,
  firstName: 'Ana' as string | null,
  lastName: 'Pérez' as string | null,
  email: 'ana@example.com' as string | null,
  phone: null as string | null,
  documentId: null as string | null,
  province: null as string | null,
  city: null as string | null,
  comment: null as string | null,
  operationInfo: null,
}

export const VEHICLE: VehicleSnapshot = {
  externalId: 'EXT-1',
  refStock: null,
  brand: 'Toyota',
  model: 'Corolla',
  version: '1.8 XEI CVT',
  versionYear: 2022,
  mileage: 30_000,
  color: null,
  bodyType: 'Sedán',
  condition: 'Usado',
  price: null,
  downPayment: null,
  installment: null,
}

/** An inquiry model as read back, received 2026-03-01 12:00 UTC unless given. */
export function inquiryModel(fields: Partial<Inquiry> = {}) {
  const inquiry = new Inquiry()
  inquiry.merge({
    sid: 'c0ffee',
    agencyId: 1,
    kind: 'listing',
    origin: 'Sitio',
    externalId: 'EXT-1',
    vehicle: { ...VEHICLE },
    ...BUYER,
    operatorEmail: null,
    receivedAt: DateTime.fromISO('2026-03-01T12:00:00Z'),
    ...fields,
  })
  return inquiry
}

/** A configuration as loaded, every channel off unless given. */
export function configModel(id: number, appId: number, fields: Partial<NotificationConfig> = {}) {
  const row = new NotificationConfig()
  row.merge({
    id,
    appId,
    webhookCallback: null,
    webhookActive: false,
    adfHookCallback: null,
    adfHookActive: false,
    adfMailEmail: null,
    adfMailActive: false,
    htmlMailBcc: [],
    htmlMailActive: false,
    ...fields,
  } as Partial<NotificationConfig>)
  return row
}
