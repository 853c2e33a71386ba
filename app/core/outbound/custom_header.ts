/*
 * Custom headers of outbound deliveries (`HeaderCustom01..03`: `{Name, Value}`).
 *
 *   HeaderCustom01: customHeader.nullable().optional()   // in a vine.create({...}) validator
 *   ...
 *   outbound.request(url, { headers: { ...safeHeaders([stored1, stored2]), ...signed } })
 *
 * Name: an RFC 7230 token of 1..64 characters, not one the service sets itself
 * (framing, hop-by-hop, Host, User-Agent, the Standard Webhooks `webhook-*`).
 * `Authorization` is allowed on purpose: a receiver's own bearer or basic
 * credentials are the most common custom header.
 * Value: 0..1024 characters of visible Latin-1 text, space or tab — no CR, LF,
 * NUL or other control characters, so a value can never split a header.
 */
import vine from '@vinejs/vine'
import { named, nullableObject } from '#core/openapi/schema'

export const HEADER_NAME_MAX = 64
export const HEADER_VALUE_MAX = 1024

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
  'proxy-authorization',
  'user-agent',
])

/** Whether the service refuses this header name for custom headers. */
export function isReservedHeader(name: string) {
  const lower = name.toLowerCase()
  return RESERVED.has(lower) || lower.startsWith('webhook-')
}

/** A Vine rule: a string `value` that is not `valid` is reported with `message` and `code`. */
function stringRule(valid: (value: string) => boolean, message: string, code: string) {
  return vine.createRule((value, _options, field) => {
    if (typeof value === 'string' && !valid(value)) field.report(message, code, field)
  })
}

const notReserved = stringRule(
  (name) => !isReservedHeader(name),
  'El encabezado {{ field }} está reservado por el servicio.',
  'headerReserved'
)

const headerValue = stringRule(
  (value) => VALUE.test(value),
  'El campo {{ field }} no puede contener saltos de línea ni caracteres de control.',
  'headerValue'
)

const headerName = stringRule(
  (name) => TOKEN.test(name),
  'El campo {{ field }} debe ser un nombre de encabezado HTTP válido.',
  'headerName'
)

/** Vine schema of one `{Name, Value}` custom header. */
export const customHeader = vine.object({
  Name: vine.string().minLength(1).maxLength(HEADER_NAME_MAX).use(headerName()).use(notReserved()),
  Value: vine.string().maxLength(HEADER_VALUE_MAX).use(headerValue()),
})

export type StoredHeader = { name: string; value: string } | { Name: string; Value: string }

/**
 * Headers ready for `outbound.request`, from stored `{name, value}` (or wire
 * `{Name, Value}`) items; nulls are skipped, and so is anything that would
 * not pass the schema (defence in depth for rows written before a rule).
 */
export function safeHeaders(list: Array<StoredHeader | null | undefined>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const item of list) {
    if (!item) continue
    const name = 'name' in item ? item.name : item.Name
    const value = 'value' in item ? item.value : item.Value
    if (typeof name !== 'string' || typeof value !== 'string') continue
    if (!TOKEN.test(name) || name.length > HEADER_NAME_MAX || isReservedHeader(name)) continue
    if (!VALUE.test(value) || value.length > HEADER_VALUE_MAX) continue
    headers[name.toLowerCase()] = value
  }
  return headers
}

/** A `HeaderCustom0N` slot on the wire: `{Name, Value}`, or null when unset. */
export const HeaderCustomSchema = named(
  'HeaderCustom',
  nullableObject({ Name: { type: 'string' }, Value: { type: 'string' } })
)

/** Slot `index` of stored headers (`HeaderCustom0N` is index N-1) as the wire sends it. */
export function wireHeader(headers: Array<{ name: string; value: string } | null>, index: number) {
  const item = headers[index]
  return item ? { Name: item.name, Value: item.value } : null
}

/** A webhook's three custom header slots: the properties of its wire schema. */
export const HeaderCustomSlots = {
  HeaderCustom01: HeaderCustomSchema,
  HeaderCustom02: HeaderCustomSchema,
  HeaderCustom03: HeaderCustomSchema,
}

/** Stored headers in the three slots, as the wire sends them. */
export function wireHeaderSlots(headers: Array<{ name: string; value: string } | null>) {
  return {
    HeaderCustom01: wireHeader(headers, 0),
    HeaderCustom02: wireHeader(headers, 1),
    HeaderCustom03: wireHeader(headers, 2),
  }
}
