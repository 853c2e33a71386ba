/*
 * Code → wire for AppWebhook. `Secret` is write-only: responses carry null, and
 * `SecretConfigurado` says whether one is stored (docs/design.md §19).
 */
import { link, path, type Links } from '#core/http/links'
import { listEnvelope } from '#core/http/envelopes'
import { APP_TOPICS } from '#apps/topics'
import type { AppWebhookRow } from '#apps/stores/app_webhook_store'
import { named, object, type Wire } from '#core/openapi/schema'
import { HeaderCustomSlots, wireHeaderSlots } from '#core/outbound/custom_header'
import { LinksSchema } from '#core/openapi/wire'

export const AppWebhookSchema = named(
  'AppWebhook',
  object({
    Callback: { type: 'string', format: 'uri' },
    Secret: { type: 'null', description: 'Nunca se devuelve' },
    SecretConfigurado: {
      type: 'boolean',
      description:
        'true si hay un Secret guardado (los envíos van firmados); el Secret nunca se devuelve',
    },
    Description: { type: ['string', 'null'] },
    Activo: { type: 'boolean' },
    ...HeaderCustomSlots,
    _links: LinksSchema,
  })
)

export const AppWebhookRefSchema = named(
  'AppWebhookRef',
  object({
    href: { type: 'string' },
    title: { type: 'string' },
    Topico: { type: 'string' },
    Activo: { type: 'boolean' },
  })
)

const self = (topic: string) => path('appnotificaciones', topic)

export function appWebhookFull(webhook: AppWebhookRow): Wire<typeof AppWebhookSchema> {
  return {
    Callback: webhook.callback,
    Secret: null,
    SecretConfigurado: Boolean(webhook.secret),
    Description: webhook.description,
    Activo: webhook.active,
    ...wireHeaderSlots(webhook.headers),
    _links: {
      self: link(self(webhook.topic)),
      edit: link(self(webhook.topic), { method: 'PUT' }),
    },
  }
}

export function appWebhookRef(webhook: AppWebhookRow): Wire<typeof AppWebhookRefSchema> {
  return {
    href: self(webhook.topic),
    title: `Notificaciones de ${webhook.topic}`,
    Topico: webhook.topic,
    Activo: webhook.active,
  }
}

export function appWebhookShapes(webhook: AppWebhookRow) {
  return { full: () => appWebhookFull(webhook), ref: () => appWebhookRef(webhook) }
}

/**
 * The topics: a set one links for GET, an unset one for PUT (its GET would
 * be 404); entries are the subscriptions that exist.
 */
export function appWebhookListShapes(webhooks: AppWebhookRow[]) {
  const links: Links = { self: link('/v3/appnotificaciones') }
  for (const topic of APP_TOPICS) {
    const set = webhooks.some((webhook) => webhook.topic === topic)
    links[topic] = set ? link(self(topic)) : link(self(topic), { method: 'PUT' })
  }
  return {
    full: () => listEnvelope(links, webhooks.map(appWebhookFull)),
    ref: () => listEnvelope(links, webhooks.map(appWebhookRef)),
  }
}
