/*
 * Shared pieces of the agencies tests: the mail and app-webhook workers, an
 * invitation body, and reading the registration link out of a real mail.
 */
import app from '@adonisjs/core/services/app'
import mailer from '@adonisjs/mail/services/main'
import type { Group } from '@japa/runner/core'
import type { ApiClient } from '@japa/api-client'
import { seedCatalog } from '#tests/helpers/catalog'
import { createCaller } from '#tests/helpers/apps'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import { uniqueEmail } from '#tests/helpers/agencies'
import db from '@adonisjs/lucid/services/db'
import { startSmtpSink, type SmtpSink, type SunkMail } from '#tests/helpers/smtp_sink'
import { until } from '#tests/helpers/until'

export async function startAgencyWorkers() {
  const runner = await app.container.make(JobRunner)
  await runner.work({ work: ['agencies.mail', 'apps.webhook'] })
  return runner
}

/**
 * The SMTP sink for a group. Closing it first waits until every queued
 * invitation mail went out, so no mail of this group is left retrying
 * against a closed port while the next group runs.
 */
export async function startMailSink(): Promise<SmtpSink> {
  const sink = await startSmtpSink()
  return {
    ...sink,
    async close() {
      await until(
        async () => {
          const owed = await db
            .from('invitations')
            .where('state', 'pending')
            .whereColumn('mailed_sequence', '<', 'mail_sequence')
            .count('* as total')
            .first()
          return Number(owed?.total ?? 0)
        },
        (owed) => owed === 0
      )
      await sink.close()
    },
  }
}

/**
 * The set-up of a group that invites: the catalogue, the agency workers, the
 * mail sink and, with `receiver`, a webhook receiver reset before each test.
 * The group's teardown closes them and the mailer. Read the members inside
 * tests: they are set when the group starts.
 */
export function mailingGroup(group: Group, options: { receiver?: boolean } = {}) {
  const world = {} as { sink: SmtpSink; receiver: Receiver; runner: JobRunner }
  group.setup(async () => {
    await seedCatalog()
    world.runner = await startAgencyWorkers()
    world.sink = await startMailSink()
    if (options.receiver) world.receiver = await startReceiver()
    return async () => {
      await world.sink.close()
      if (options.receiver) await world.receiver.close()
      await mailer.closeAll()
    }
  })
  if (options.receiver) group.each.setup(() => world.receiver.reset())
  return world
}

export function invitationBody(overrides: Record<string, unknown> = {}) {
  return {
    AdminMail: uniqueEmail('invited'),
    NombreComercial: 'Autos del Plata',
    Region: 'AR-B',
    Ciudad: 'La Plata',
    Direccion: 'Calle 7 1234',
    Telefono: '+5492215550000',
    AdminNombre: 'Marta',
    AdminApellido: 'Suárez',
    ...overrides,
  }
}

/** POST /v3/agencias as the app of `token`; asserts the 202 every invitation answers. */
export async function postInvitation(client: ApiClient, token: string, body: object) {
  const response = await client.post('/v3/agencias').bearerToken(token).json(body)
  response.assertStatus(202)
  return response
}

/**
 * A new app invites `invitationBody(overrides)` and the mail arrives: the
 * app's token, the body sent and the mailed registration link.
 */
export async function inviteAndRead(
  client: ApiClient,
  sink: SmtpSink,
  overrides: Record<string, unknown> = {}
) {
  const { token } = await createCaller()
  const body = invitationBody(overrides)
  await postInvitation(client, token, body)
  const link = registrationLink((await mailsTo(sink, body.AdminMail))[0])
  return { token, body, link }
}

/** The mails sent to `email`, once at least `count` arrived. */
export async function mailsTo(sink: SmtpSink, email: string, count = 1): Promise<SunkMail[]> {
  const address = email.toLowerCase()
  await sink.waitFor(
    (mail) => mail.envelope.to.includes(address) && countFor(sink, address) >= count
  )
  return sink.messages.filter((mail) => mail.envelope.to.includes(address))
}

function countFor(sink: SmtpSink, address: string) {
  return sink.messages.filter((mail) => mail.envelope.to.includes(address)).length
}

/** The `{PUBLIC_URL}/registro/{token}` link of a mail (text and HTML must agree). */
export function registrationLink(mail: SunkMail): string {
  const pattern = new RegExp(`${escape(settings.publicUrl)}/registro/[A-Za-z0-9_-]+`)
  const inText = mail.parsed.text?.match(pattern)?.[0]
  const inHtml = mail.parsed.html?.match(pattern)?.[0]
  if (!inText || inText !== inHtml)
    throw new Error('registration link missing or different in text and HTML')
  return inText
}

/** Path part of an absolute URL of this service. */
export function pathOf(url: string) {
  return url.slice(settings.publicUrl.length)
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
