/*
 * A buyer's personal data in the leads module (docs/design.md §16,
 * docs/privacy.md): finding the buyer's inquiries, exporting them as the API
 * shows them with where each went, and suppressing every copy — the inquiry's
 * Interesado fields (the row stays), its delivery payloads and attempt errors,
 * the app events about it, the kept idempotent responses and buyers' form
 * confirmations naming it — then telling each app that received any of them
 * (`InteresadoSuprimido`, topic `consultas`). Used by the buyers module's
 * privacy requests, commands and retention job.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import { DeliveryService, type Delivery } from '#core/outbound/deliveries'
import Idempotency from '#core/http/idempotency'
import { path } from '#core/http/links'
import AppEvents from '#apps/services/app_events'
import AgencyDirectory from '#agencies/services/agency_directory'
import InquiryStore, {
  type BuyerCandidate,
  type BuyerInquiry,
  type BuyerKeys,
} from '#leads/stores/inquiry_store'
import { CHANNELS, type Channel } from '#leads/services/notification_fanout'
import { inquiryFull, inquiryPath, moment } from '#leads/transformers/inquiry_transformer'

export type { BuyerCandidate, BuyerInquiry, BuyerKeys }

/** Where an inquiry was delivered (docs/design.md §16 `Entregas`). */
export type DeliveryTrace = { Canal: string; Destino: string; Momento: string; Estado: string }

const STATE: Record<string, string> = {
  pending: 'Pendiente',
  delivered: 'Entregada',
  failed: 'Reintentando',
  dead: 'Fallida',
  disabled: 'Desactivada',
}

export type ForgetOutcome = {
  /** The inquiries whose buyer fields were emptied now. */
  erased: BuyerInquiry[]
  /** Message-IDs of the mails sent about them: their `.eml` files go after the commit. */
  mailMessageIds: string[]
  /** The apps told (`InteresadoSuprimido`), with the hrefs each was told about. */
  notified: Map<number, string[]>
}

@inject()
export default class BuyerData {
  constructor(
    private inquiries: InquiryStore,
    private deliveries: DeliveryService,
    private idempotency: Idempotency,
    private appEvents: AppEvents,
    private agencies: AgencyDirectory
  ) {}

  /**
   * The candidate inquiries of a buyer at one agency (null: at every agency),
   * oldest first, with the identifiers each holds: the caller's matching rules
   * decide which name the person (locked `for share` in `tx`).
   */
  find(keys: BuyerKeys, agencyId: number | null, tx?: Tx): Promise<BuyerCandidate[]> {
    return this.inquiries.findBuyer(keys, agencyId, tx)
  }

  /**
   * Up to `limit` inquiries still holding a buyer's data, received before their
   * agency's cutoff (else `defaultCutoff`), oldest first: one retention batch.
   */
  expired(defaultCutoff: Date, cutoffs: { agencyId: number; cutoff: Date }[], limit: number) {
    return this.inquiries.expiredBuyers(defaultCutoff, cutoffs, limit)
  }

  /**
   * Everything held about the inquiries, as the API shows them (the full
   * Consulta, plus the caller's `extra` members of each) with `Entregas`:
   * every delivery, to any app's configuration — another app's than `viewer`
   * by its channel only, never its URL or mailbox (docs/design.md §25; no
   * viewer: every target, for the operator's command).
   */
  async export(
    ids: number[],
    adminMail: string,
    options: { viewer?: number | null; extra?: Map<number, Record<string, unknown>> } = {}
  ) {
    const rows = await this.inquiries.many(ids)
    const consultas = []
    for (const inquiry of rows) {
      const deliveries = await this.deliveries.list('inquiry', inquiry.id)
      consultas.push({
        ...inquiryFull(inquiry, adminMail),
        ...options.extra?.get(Number(inquiry.id)),
        Entregas: deliveries.map((delivery) => trace(delivery, options.viewer ?? null)),
      })
    }
    return consultas
  }

  /**
   * Suppresses the buyer's data of the inquiries, all in `trx`, and tells the
   * apps that received any of them. Inquiries already erased are skipped.
   */
  async forget(ids: number[], trx: Tx): Promise<ForgetOutcome> {
    const erased = await this.inquiries.eraseBuyer(ids, trx)
    const outcome: ForgetOutcome = { erased, mailMessageIds: [], notified: new Map() }
    if (!erased.length) return outcome

    const adminMails = new Map<number, string>()
    for (const agencyId of new Set(erased.map((inquiry) => inquiry.agencyId))) {
      const admin = await this.agencies.admin(agencyId, trx)
      adminMails.set(agencyId, admin?.email ?? '')
    }
    const hrefOf = new Map(
      erased.map((inquiry) => [
        inquiry.id,
        inquiryPath(adminMails.get(inquiry.agencyId)!, inquiry.sid),
      ])
    )
    // Who received what: the publishing and the sending app, every delivery's app,
    // every app that had an event about it, and for catalogue inquiries the apps
    // receiving the agency's other leads (their ConsultaRecibida).
    const received = new Map<string, Set<number>>()
    const tell = (href: string, appId: number | null) => {
      if (appId === null) return
      if (!received.has(href)) received.set(href, new Set())
      received.get(href)!.add(appId)
    }
    const otherLeadsApps = new Map<number, number[]>()
    for (const inquiry of erased) {
      const href = hrefOf.get(inquiry.id)!
      tell(href, inquiry.appId)
      tell(href, inquiry.sourceAppId)
      if (inquiry.kind === 'catalog') {
        if (!otherLeadsApps.has(inquiry.agencyId))
          otherLeadsApps.set(
            inquiry.agencyId,
            await this.agencies.appsReceivingOtherLeads(inquiry.agencyId, trx)
          )
        for (const appId of otherLeadsApps.get(inquiry.agencyId)!) tell(href, appId)
      }
    }
    const emptied = await this.deliveries.forget(
      { ownerType: 'inquiry', ownerIds: erased.map((inquiry) => inquiry.id) },
      trx
    )
    for (const delivery of emptied) {
      tell(hrefOf.get(Number(delivery.ownerId))!, delivery.appId)
      if (delivery.channel === 'adfMail' || delivery.channel === 'htmlMail')
        outcome.mailMessageIds.push(delivery.mailMessageId)
    }
    for (const event of await this.appEvents.forgetAbout([...hrefOf.values()], trx))
      tell(event.href, event.appId)
    await this.idempotency.forget(
      erased.map((inquiry) => inquiry.sid),
      trx
    )

    // One InteresadoSuprimido per agency and app, naming only the inquiries that app received.
    for (const [agencyId, adminMail] of adminMails) {
      const perApp = new Map<number, string[]>()
      for (const inquiry of erased.filter((entry) => entry.agencyId === agencyId)) {
        const href = hrefOf.get(inquiry.id)!
        for (const appId of received.get(href) ?? []) {
          if (!perApp.has(appId)) perApp.set(appId, [])
          perApp.get(appId)!.push(href)
        }
      }
      for (const [appId, hrefs] of perApp) {
        await this.appEvents.emit(appId, 'consultas', suppressedEvent(adminMail, hrefs), trx)
        outcome.notified.set(appId, [...(outcome.notified.get(appId) ?? []), ...hrefs])
      }
    }
    return outcome
  }
}

/** The `InteresadoSuprimido` event (docs/design.md §16): the agency's inquiries, and which. */
export function suppressedEvent(adminMail: string, hrefs: string[]) {
  return {
    Tipo: 'InteresadoSuprimido',
    Agencia: { AdminMail: adminMail, href: path('agencias', adminMail) },
    Recurso: {
      href: path('consultas', adminMail),
      title: `Datos del interesado suprimidos en ${hrefs.length} consulta(s)`,
    },
    Datos: { Consultas: hrefs },
  }
}

/** Another app's target, as the channel only. */
const CHANNEL_ONLY: Record<string, string> = {
  webhook: 'Webhook',
  adfHook: 'AdfHook',
  adfMail: 'AdfMail',
  htmlMail: 'HtmlMail',
}

function trace(delivery: Delivery, viewer: number | null): DeliveryTrace {
  const own = viewer === null || delivery.appId === viewer
  return {
    Canal: CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel,
    Destino: own ? delivery.target : (CHANNEL_ONLY[delivery.channel] ?? delivery.channel),
    Momento: moment(delivery.deliveredAt ?? delivery.createdAt),
    Estado: STATE[delivery.status] ?? delivery.status,
  }
}
