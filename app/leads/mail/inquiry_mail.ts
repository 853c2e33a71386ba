/*
 * The lead mails: subject (with the agency's name), the HTML body (an Edge
 * view, which escapes every value) and its plain-text alternative.
 */
import edge from 'edge.js'
import { fileURLToPath } from 'node:url'
import { readableTime } from '#core/wire_time'
import { formatMoney } from '#core/money_format'
import type { InquiryFields } from '#leads/models/inquiry'
import { inquiryFull, vehicleTitle } from '#leads/transformers/inquiry_transformer'

type MailContext = { inquiry: InquiryFields; agency: { adminMail: string; tradeName: string } }

/** Edge itself knows whether the leads views are mounted: no flag of our own. */
function views() {
  if (!edge.loader.mounted.leads)
    edge.mount('leads', fileURLToPath(new URL('../views', import.meta.url)))
  return edge
}

/** Subject lines cannot carry line breaks. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim()

export function mailSubject({ inquiry, agency }: MailContext) {
  return oneLine(`Nueva consulta para ${agency.tradeName}: ${vehicleTitle(inquiry) || 'vehículo'}`)
}

/** What both bodies show, in wire words (the mail is read by the agency). */
function rows({ inquiry, agency }: MailContext) {
  const consulta = inquiryFull(inquiry, agency.adminMail)
  const buyer = consulta.Interesado
  const car = consulta.Auto
  // As the buyers' page shows it (`$ 21.500.000`), not the wire's `ARS 21500000`.
  const money = (valor: { Moneda: string; Importe: number } | null) =>
    valor ? formatMoney({ currency: valor.Moneda, amount: valor.Importe }) : null
  const entries: Array<[string, unknown]> = [
    ['Recibida', readableTime(consulta.Momento)],
    ['Origen', consulta.OrigenLead],
    ['Vehículo', vehicleTitle(inquiry)],
    ['ExternalId', car.ExternalId],
    ['RefStock', car.RefStock],
    ['Precio', money(car.Precio)],
    ['Interés', buyer.Interes],
    ['Nombre', [buyer.Nombre, buyer.Apellido].filter(Boolean).join(' ')],
    ['Email', buyer.Email],
    ['Teléfono', buyer.Telefono],
    ['Documento', buyer.DocIdentidad],
    ['Provincia', buyer.Provincia],
    ['Ciudad', buyer.Ciudad],
    ['Comentario', buyer.Comentario],
    ['Operador responsable', consulta.OperadorResponsable],
  ]
  return entries
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([label, value]) => ({ label, value: String(value) }))
}

export async function renderHtml(context: MailContext) {
  return views().render('leads::inquiry_mail', {
    subject: mailSubject(context),
    tradeName: context.agency.tradeName,
    rows: rows(context),
  })
}

export function renderText(context: MailContext) {
  const lines = rows(context).map(({ label, value }) => `${label}: ${value}`)
  return [`Nueva consulta para ${context.agency.tradeName}`, '', ...lines, ''].join('\n')
}
