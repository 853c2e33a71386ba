import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { path } from '#core/http/links'
import { settings } from '#core/settings'
import type AppWebhook from '#apps/models/app_webhook'
import { isAppTopic, type AppTopic } from '#apps/models/app_webhook'
import AppWebhookReader from '#apps/services/app_webhook_reader'
import SaveAppWebhook, { type SaveMode } from '#apps/services/save_app_webhook'
import { appWebhookValidator } from '#apps/validators/app_webhook_validator'
import { AppWebhookTransformer } from '#apps/transformers/app_webhook_transformer'
import SendTestEvent from '#apps/services/send_test_event'
import { AppEventTransformer } from '#apps/transformers/app_event_transformer'

/** `/v3/appnotificaciones[/{topic}]`: the app's subscriptions to app-level events. */
export default class AppNotificationsController {
  private reader = new AppWebhookReader()
  private saver = new SaveAppWebhook()

  async index(ctx: HttpContext) {
    const webhooks = await this.reader.all(ctx.caller)
    return respond(ctx, {
      full: () => AppWebhookTransformer.list(webhooks, 'full'),
      ref: () => AppWebhookTransformer.list(webhooks, 'ref'),
    })
  }

  async show(ctx: HttpContext) {
    const webhook = await this.reader.find(ctx.caller, topicOf(ctx))
    if (!webhook) throw Problem.notFound('La aplicación no está suscripta a este tópico.')
    return respond(ctx, shapes(webhook))
  }

  /** Sends a signed `Prueba` event now and reports how the receiver answered. */
  async test(ctx: HttpContext) {
    const outcome = await new SendTestEvent().execute(ctx.caller, topicOf(ctx))
    if (!outcome) throw Problem.notFound('La aplicación no está suscripta a este tópico.')
    return respond(ctx, {
      full: () => AppEventTransformer.test(outcome),
      ref: () => AppEventTransformer.test(outcome),
    })
  }

  store(ctx: HttpContext) {
    return this.#save(ctx, 'create')
  }

  update(ctx: HttpContext) {
    return this.#save(ctx, 'replace')
  }

  async #save(ctx: HttpContext, mode: SaveMode) {
    const topic = topicOf(ctx)
    const input = await appWebhookValidator.validate(ctx.request.body())
    const result = await this.saver.execute(ctx.caller, topic, input, mode)
    if (!result.ok) {
      throw Problem.conflict({
        _: ['La suscripción a este tópico ya existe; use PUT para reemplazarla.'],
      })
    }
    if (mode === 'replace') return respond(ctx, shapes(result.value.webhook))
    const location = settings.publicUrl + path('appnotificaciones', topic)
    return respond(ctx, shapes(result.value.webhook), { status: 201, location })
  }
}

function topicOf(ctx: HttpContext): AppTopic {
  const topic = String(ctx.params.topic)
  if (!isAppTopic(topic)) throw Problem.notFound('El tópico no existe.')
  return topic
}

const shapes = (webhook: AppWebhook) => ({
  full: () => AppWebhookTransformer.full(webhook),
  ref: () => AppWebhookTransformer.ref(webhook),
})
