/*
 * Code → wire for the app's credentials (docs/design.md §18). A token's
 * secret appears only in the answer that issues it (CredencialNueva); lists
 * and the commands never carry it, nor its hash.
 */
import type { DateTime } from 'luxon'
import { link, path } from '#core/http/links'
import { pagedEnvelope } from '#core/http/envelopes'
import { settings } from '#core/settings'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinksSchema, pagedOf } from '#core/openapi/wire'
import type { TokenRow } from '#apps/stores/token_store'
import type { Rotated } from '#apps/services/rotate_token'
import type { LiveTokenPage } from '#apps/services/token_reader'

const instant = { type: 'string', format: 'date-time' } as const
const maybeInstant = { type: ['string', 'null'], format: 'date-time' } as const

export const CredencialSchema = named(
  'Credencial',
  object({
    Id: { type: 'integer' },
    Nombre: { type: ['string', 'null'] },
    Creado: instant,
    UltimoUso: { ...maybeInstant, description: 'Último uso, con resolución de un minuto' },
    Vence: { ...maybeInstant, description: 'null: no vence' },
    _links: LinksSchema,
  })
)

export const CredencialRefSchema = named(
  'CredencialRef',
  object({ href: { type: 'string' }, title: { type: 'string' }, Id: { type: 'integer' } })
)

export const CredencialNuevaSchema = named(
  'CredencialNueva',
  object({
    Id: { type: 'integer' },
    Nombre: { type: ['string', 'null'] },
    Token: { type: 'string', description: 'El token: se muestra solo en esta respuesta' },
    Vence: {
      ...maybeInstant,
      description:
        'null: no vence. Si el token usado en la llamada tenía vencimiento, el nuevo vence en ese mismo momento',
    },
    Anterior: object({
      Id: { type: 'integer', description: 'El token usado en la llamada' },
      Vence: { ...instant, description: 'Desde este momento deja de valer' },
    }),
  })
)

/** An instant as the wire writes it: ISO 8601 with the offset of TZ. */
export const wireInstant = (value: DateTime) => value.setZone(settings.timezone).toISO()!
const wireMaybe = (value: DateTime | null) => (value ? wireInstant(value) : null)

export const credentialHref = (id: number) => path('credenciales', id)

/** What the list and the commands both say of a token. */
function credentialFields(token: TokenRow) {
  return {
    Id: token.id,
    Nombre: token.name,
    Creado: wireInstant(token.createdAt),
    UltimoUso: wireMaybe(token.lastUsedAt),
    Vence: wireMaybe(token.expiresAt),
  }
}

export function credentialFull(token: TokenRow): Wire<typeof CredencialSchema> {
  return { ...credentialFields(token), _links: { self: link(credentialHref(token.id)) } }
}

export function credentialRef(token: TokenRow): Wire<typeof CredencialRefSchema> {
  return {
    href: credentialHref(token.id),
    title: token.name ?? `Token ${token.id}`,
    Id: token.id,
  }
}

export function credentialShapes(token: TokenRow) {
  return { full: () => credentialFull(token), ref: () => credentialRef(token) }
}

export const CredencialesPaginaSchema = named('CredencialesPagina', pagedOf(CredencialSchema))
export const CredencialesPaginaRefSchema = named(
  'CredencialesPaginaRef',
  pagedOf(CredencialRefSchema)
)

/** The paged list (docs/spec.md §2.12), with the rotation as an action link. */
export function credentialListShapes(list: LiveTokenPage) {
  const page = { page: list.page, perPage: list.perPage, total: list.total }
  const envelope = <Entry>(entry: (token: TokenRow) => Entry) => {
    const paged = pagedEnvelope('/v3/credenciales{?pagina}', {}, page, list.rows.map(entry))
    paged._links.rotar = link('/v3/credenciales', { method: 'POST' })
    return paged
  }
  return { full: () => envelope(credentialFull), ref: () => envelope(credentialRef) }
}

/** The issued token, once; the same body in both representations (a reference would lose it). */
export function rotatedShapes(rotated: Rotated) {
  const body = (): Wire<typeof CredencialNuevaSchema> => ({
    Id: rotated.row.id,
    Nombre: rotated.row.name,
    Token: rotated.token,
    Vence: wireMaybe(rotated.row.expiresAt),
    Anterior: { Id: rotated.previous.id, Vence: wireInstant(rotated.previous.expiresAt!) },
  })
  return { full: body, ref: body }
}

/** `ace app:tokens --json`: every token with its state; never a secret. */
export function tokenListing(token: TokenRow) {
  return { ...credentialFields(token), Revocado: wireMaybe(token.revokedAt) }
}
