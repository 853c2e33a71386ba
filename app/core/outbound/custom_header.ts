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

const notReserved = vine.createRule((value, _options, field) => {
  if (typeof value === 'string' && isReservedHeader(value)) {
    field.report(
      'El encabezado {{ field }} está reservado por el servicio.',
      'headerReserved',
      field
    )
  }
})

const headerValue = vine.createRule((value, _options, field) => {
  if (typeof value === 'string' && !VALUE.test(value)) {
    field.report(
      'El campo {{ field }} no puede contener saltos de línea ni caracteres de control.',
      'headerValue',
      field
    )
  }
})

const headerName = vine.createRule((value, _options, field) => {
  if (typeof value === 'string' && !TOKEN.test(value)) {
    field.report(
      'El campo {{ field }} debe ser un nombre de encabezado HTTP válido.',
      'headerName',
      field
    )
  }
})

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
