/*
 * Inquiries for tests: a dealer app with the intake ability, its agency and
 * an active listing; inquiry bodies; waiting on deliveries.
 */
import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import { Delivery } from '#core/outbound/deliveries'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail, type AgencyOptions } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import SidPool from '#leads/services/sid_pool'
import type { VehicleSnapshot } from '#leads/models/inquiry'
import { until } from '#tests/helpers/until'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp_sink'
import type { Group } from '@japa/runner/core'

export { until }

export const LEAD_QUEUES = ['leads.webhook', 'leads.adf-hook', 'leads.adf-mail', 'leads.html-mail']

/** Starts the leads delivery workers in the test process (LISTEN/NOTIFY wakes them). */
export async function startLeadWorkers() {
  const runner = await app.container.make(JobRunner)
  await runner.work({ work: LEAD_QUEUES })
}

/**
 * A group's lead harness: the lead workers (and `queues`) in the test process,
 * a webhook receiver reset before each test and an SMTP sink, both closed after
 * the group. `ready` gets them once started:
 *
 *   let receiver: Receiver
 *   let sink: SmtpSink
 *   leadHarness(group, (parts) => ({ receiver, sink } = parts))
 */
export function leadHarness(
  group: Group,
  ready: (parts: { receiver: Receiver; sink: SmtpSink }) => void,
  queues: string[] = []
) {
  let receiver: Receiver
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: [...LEAD_QUEUES, ...queues] })
    receiver = await startReceiver()
    const sink = await startSmtpSink()
    ready({ receiver, sink })
    return async () => {
      await receiver.close()
      await sink.close()
    }
  })
  group.each.setup(() => receiver.reset())
}

/** A dealer app (holding `consultas:crear`), its agency and one active listing. */
export async function dealerWorld(
  options: AgencyOptions & { listing?: Record<string, unknown> } = {}
) {
  const { app: caller, token } = await createCaller('Dealer app', ['consultas:crear'])
  const fixture = await createAgency(caller, options)
  const listing = await createListing(caller, fixture, options.listing ?? {})
  return { caller, token, fixture, adminMail: fixture.agency.adminMail, listing }
}

/** A valid intake body about `externalId`. */
export function inquiryBody(externalId: string, buyer: Record<string, unknown> = {}) {
  return {
    ExternalId: externalId,
    OrigenLead: 'App',
    Interesado: {
      Interes: 'Compra',
      Nombre: 'Lucía',
      Apellido: 'Gómez',
      Email: uniqueEmail('buyer'),
      Telefono: '+54 11 5555-1234',
      Comentario: '¿Sigue disponible?',
      ...buyer,
    },
  }
}

/** Posts an inquiry (by default about the world's listing) as the world's app; asserts 201. */
export async function postInquiry(
  client: ApiClient,
  world: { adminMail: string; token: string; listing: { externalId: string } },
  body: object = inquiryBody(world.listing.externalId)
) {
  const created = await client
    .post(`/v3/consultas/${world.adminMail}`)
    .bearerToken(world.token)
    .json(body)
  created.assertStatus(201)
  return created
}

/** PUT /v3/notificaciones/{adminmail} with `config` as the world's app; asserts 200. */
export async function configureNotifications(
  client: ApiClient,
  world: { adminMail: string; token: string },
  config: object
) {
  const response = await client
    .put(`/v3/notificaciones/${world.adminMail}`)
    .bearerToken(world.token)
    .json(config)
  response.assertStatus(200)
  return response
}

/** The deliveries of an inquiry (by sid), with attempts. */
export async function deliveriesOf(sid: string) {
  const row = await db.from('inquiries').where('sid', sid).select('id').firstOrFail()
  return Delivery.query()
    .where('owner_type', 'inquiry')
    .where('owner_id', String(row.id))
    .preload('attempts', (attempts) => attempts.orderBy('number'))
    .orderBy('created_at')
}

/** Waits until every delivery of the inquiry has settled (delivered, dead or disabled). */
export function settledDeliveries(sid: string, count: number, timeoutMs = 15_000) {
  return until(
    () => deliveriesOf(sid),
    (list) =>
      list.length >= count &&
      list.every((d) => ['delivered', 'dead', 'disabled'].includes(d.status)),
    timeoutMs
  )
}

/** An inquiry's vehicle as stored: a new 2024 Corolla 2.0 XEI (EXT-1) unless given. */
export function vehicleSnapshot(fields: Partial<VehicleSnapshot> = {}): VehicleSnapshot {
  return {
    externalId: 'EXT-1',
    refStock: null,
    brand: 'Toyota',
    model: 'Corolla',
    version: '2.0 XEI',
    versionYear: 2024,
    mileage: 0,
    color: null,
    bodyType: null,
    condition: 'Nuevo',
    price: null,
    downPayment: null,
    installment: null,
    ...fields,
  }
}

/** The sid of a Location or self href. */
export const sidOf = (href: string) => href.split('/').filter(Boolean).at(-1)!

/**
 * Inserts inquiries directly (for paging and period tests, where going
 * through HTTP would only be slower). `receivedAt` per row; visible to `appId`.
 */
export async function insertInquiries(
  rows: Array<{ receivedAt: Date; operatorEmail?: string; externalId?: string }>,
  base: { appId: number | null; agencyId: number; operatorId?: number; operatorEmail?: string }
) {
  const sids = new SidPool()
  const records = rows.map((row) => {
    const externalId = row.externalId ?? 'bulk-1'
    return {
      sid: sids.next(),
      app_id: base.appId,
      agency_id: base.agencyId,
      operator_id: base.operatorId ?? null,
      operator_email: row.operatorEmail ?? base.operatorEmail ?? null,
      kind: base.appId === null ? 'catalog' : 'listing',
      origin: 'App',
      external_id: externalId,
      vehicle: JSON.stringify(vehicleSnapshot({ externalId, version: 'XEI' })),
      email: uniqueEmail('bulk'),
      received_at: row.receivedAt,
      resend_open: true,
      resend_closes_at: new Date(row.receivedAt.getTime() + 7 * 86_400_000),
    }
  })
  for (let i = 0; i < records.length; i += 500)
    await db.table('inquiries').multiInsert(records.slice(i, i + 500))
  return records.map((record) => record.sid)
}
