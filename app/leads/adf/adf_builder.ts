/*
 * ADF 1.0 (Auto-lead Data Format) for the ADF hook and the ADF mail. Built with
 * xmlbuilder2, which escapes every text and attribute; characters XML 1.0
 * cannot carry are dropped first. The output is valid against adf-1.0.dtd.
 */
import { DateTime } from 'luxon'
import { create } from 'xmlbuilder2'
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js'
import type { InquiryFields, Money } from '#leads/models/inquiry'
import { moment } from '#leads/transformers/inquiry_transformer'

/** Interesado.Interes → ADF vehicle interest (docs/design.md §5). */
const INTEREST: Record<string, string> = {
  Compra: 'buy',
  Financiacion: 'lease',
  Permuta: 'trade-in',
  PruebaDeManejo: 'test-drive',
}

export type AdfContext = {
  inquiry: InquiryFields
  agency: { adminMail: string; tradeName: string }
  operator: { email: string; firstName: string; lastName: string } | null
  resend?: boolean
}

// Tab, LF, CR and the printable planes are all XML 1.0 allows.
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function clean(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).replace(INVALID_XML, '')
}

function text(
  parent: XMLBuilder,
  name: string,
  value: unknown,
  attributes: Record<string, string> = {}
) {
  return parent.ele(name, attributes).txt(clean(value))
}

function optional(
  parent: XMLBuilder,
  name: string,
  value: unknown,
  attributes: Record<string, string> = {}
) {
  if (value !== null && value !== undefined && value !== '') text(parent, name, value, attributes)
}

const amount = (money: Money) => Number(money.amount).toFixed(2)

export function buildAdf({ inquiry, agency, operator, resend }: AdfContext): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ins('adf', 'version="1.0"').ele('adf')
  const prospect = root.ele('prospect', { status: resend ? 'resend' : 'new' })
  text(prospect, 'id', inquiry.sid, { sequence: '1', source: 'dealership-listing-api' })
  text(prospect, 'requestdate', moment(inquiry.receivedAt))

  const vehicle = inquiry.vehicle
  const car = prospect.ele('vehicle', {
    interest: INTEREST[inquiry.interest ?? ''] ?? 'buy',
    status: vehicle.condition === 'Usado' ? 'used' : 'new',
  })
  if (vehicle.externalId) text(car, 'id', vehicle.externalId, { source: clean(agency.tradeName) })
  text(car, 'year', vehicle.versionYear)
  text(car, 'make', vehicle.brand)
  text(car, 'model', vehicle.model)
  optional(car, 'stock', vehicle.refStock)
  optional(car, 'trim', vehicle.version)
  optional(car, 'bodystyle', vehicle.bodyType)
  if (vehicle.mileage !== null && vehicle.mileage !== undefined) {
    text(car, 'odometer', vehicle.mileage, { units: 'km' })
  }
  if (vehicle.color) {
    const colors = car.ele('colorcombination')
    text(colors, 'exteriorcolor', vehicle.color)
    text(colors, 'preference', 1)
  }
  if (vehicle.price)
    text(car, 'price', amount(vehicle.price), {
      type: 'asking',
      currency: clean(vehicle.price.currency),
    })

  const financing = inquiry.operationInfo?.financing
  const amounts: Array<[string, Money]> = []
  if (financing?.downPayment) amounts.push(['downpayment', financing.downPayment])
  if (financing?.installment) amounts.push(['monthly', financing.installment])
  if (amounts.length > 0) {
    const finance = car.ele('finance')
    text(finance, 'method', 'finance')
    for (const [type, money] of amounts) {
      text(finance, 'amount', amount(money), {
        type,
        limit: 'maximum',
        currency: clean(money.currency),
      })
    }
  }

  const tradeIn = inquiry.operationInfo?.tradeIn
  if (tradeIn) {
    const trade = prospect.ele('vehicle', { interest: 'trade-in', status: 'used' })
    text(trade, 'year', tradeIn.versionYear)
    text(trade, 'make', tradeIn.brand)
    text(trade, 'model', tradeIn.model)
  }

  const customer = prospect.ele('customer')
  const contact = customer.ele('contact')
  const fullName = [inquiry.firstName, inquiry.lastName].filter(Boolean).join(' ')
  if (inquiry.firstName) text(contact, 'name', inquiry.firstName, { part: 'first' })
  if (inquiry.lastName) text(contact, 'name', inquiry.lastName, { part: 'last' })
  if (!fullName) text(contact, 'name', inquiry.email ?? inquiry.phone, { part: 'full' })
  optional(contact, 'email', inquiry.email)
  optional(contact, 'phone', inquiry.phone)
  if (inquiry.city || inquiry.province) {
    const address = contact.ele('address')
    text(address, 'street', '')
    optional(address, 'city', inquiry.city)
    optional(address, 'regioncode', inquiry.province)
  }
  if (inquiry.documentId) text(customer, 'id', inquiry.documentId, { source: 'DocIdentidad' })
  const comments = [
    inquiry.comment,
    inquiry.operationInfo?.wantsInsuranceQuote ? 'Quiere cotización de seguro.' : null,
  ].filter(Boolean)
  if (comments.length > 0) text(customer, 'comments', comments.join('\n'))

  const vendor = prospect.ele('vendor')
  text(vendor, 'vendorname', agency.tradeName)
  const vendorContact = vendor.ele('contact', { primarycontact: '1' })
  const operatorName = operator ? `${operator.firstName} ${operator.lastName}`.trim() : ''
  text(vendorContact, 'name', operatorName || agency.tradeName, {
    part: 'full',
    type: 'individual',
  })
  text(vendorContact, 'email', operator?.email ?? inquiry.operatorEmail ?? agency.adminMail)

  const provider = prospect.ele('provider')
  text(provider, 'name', 'Dealership Listing API', { part: 'full', type: 'business' })
  text(provider, 'service', inquiry.origin)

  return root.end({ prettyPrint: true })
}

/**
 * The ADF hook's test document (POST /v3/notificaciones/{adminmail}/prueba):
 * valid ADF 1.0, so a receiver's parser runs as on a real lead; unmistakably a
 * test: the prospect id's source is `Prueba` and its comments say so
 * (docs/decisions/leads.md).
 */
export function buildAdfTest(agency: { adminMail: string; tradeName: string }, id: string) {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ins('adf', 'version="1.0"').ele('adf')
  const prospect = root.ele('prospect', { status: 'new' })
  text(prospect, 'id', id, { sequence: '1', source: 'Prueba' })
  text(prospect, 'requestdate', moment(DateTime.now()))
  const car = prospect.ele('vehicle', { interest: 'buy', status: 'new' })
  text(car, 'year', DateTime.now().year)
  text(car, 'make', 'Prueba')
  text(car, 'model', 'Prueba')
  const customer = prospect.ele('customer')
  const contact = customer.ele('contact')
  text(contact, 'name', 'Prueba', { part: 'full' })
  text(contact, 'email', agency.adminMail)
  text(customer, 'comments', 'Tipo: Prueba. Envío de prueba del ADF hook; no es una consulta.')
  const vendor = prospect.ele('vendor')
  text(vendor, 'vendorname', agency.tradeName)
  const vendorContact = vendor.ele('contact', { primarycontact: '1' })
  text(vendorContact, 'name', agency.tradeName, { part: 'full', type: 'business' })
  text(vendorContact, 'email', agency.adminMail)
  return root.end({ prettyPrint: true })
}
