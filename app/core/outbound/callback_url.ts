/*
 * Vine rules for URLs the service will fetch or post to later.
 *
 * `callbackUrl` (webhook `Callback` fields): an absolute https URL without
 * credentials — http too while OUTBOUND_ALLOW_PRIVATE is on (local testing).
 * `publicIpHost` (photo URLs and the like): refuses an IP-literal host in a
 * non-public range while OUTBOUND_ALLOW_PRIVATE is off, so a target that can
 * never be reached is refused when configured, not retried (callbackUrl
 * includes it). Host names are checked again by the outbound client at
 * connect time, on every delivery (DNS can change).
 *
 *   Callback: vine.string().trim().maxLength(1024).use(callbackUrl())
 *   Fotos: vine.array(vine.string().url().use(publicIpHost()))
 */
import net from 'node:net'
import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { settings } from '#core/settings'
import { isPublicAddress } from './public_address.js'

export const CALLBACK_MAX = 1024

/** Whether the URL's host is an IP literal the outbound client would refuse (flag read per call). */
export function hasRefusedIpHost(url: URL): boolean {
  if (settings.outboundAllowPrivate) return false
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return net.isIP(host) !== 0 && !isPublicAddress(host)
}

function reportPrivate(field: FieldContext, rule: string) {
  field.report('El campo {{ field }} apunta a una dirección que no es pública.', rule, field)
}

export const callbackUrl = vine.createRule(
  (value: unknown, _options: undefined, field) => {
    if (typeof value !== 'string') return
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return field.report('El campo {{ field }} debe ser una URL absoluta.', 'callbackUrl', field)
    }
    const schemes = settings.outboundAllowPrivate ? ['https:', 'http:'] : ['https:']
    if (!schemes.includes(url.protocol)) {
      return field.report('El campo {{ field }} debe ser una URL https.', 'callbackUrl', field)
    }
    if (url.username || url.password) {
      return field.report('El campo {{ field }} no debe llevar credenciales.', 'callbackUrl', field)
    }
    if (hasRefusedIpHost(url)) return reportPrivate(field, 'callbackUrl')
  },
  {
    name: 'callbackUrl',
    toJSONSchema: (schema) => {
      schema.format = 'uri'
      schema.description ??=
        'URL https absoluta de un host público (http solo con OUTBOUND_ALLOW_PRIVATE)'
    },
  }
)

export const publicIpHost = vine.createRule(
  (value: unknown, _options: undefined, field) => {
    if (typeof value !== 'string' || !URL.canParse(value)) return
    if (hasRefusedIpHost(new URL(value))) reportPrivate(field, 'publicIpHost')
  },
  {
    name: 'publicIpHost',
    toJSONSchema: (schema) => {
      schema.description ??= 'URL de un host público (no una IP privada ni reservada)'
    },
  }
)
