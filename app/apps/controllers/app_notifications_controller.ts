import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { path } from '#core/http/links'
import { settings } from '#core/settings'
import { isAppTopic, type AppTopic } from '#apps/topics'
import AppWebhookReader from '#apps/services/app_webhook_reader'
import SaveAppWebhook, { type SaveMode } from '#apps/services/save_app_webhook'
import { appWebhookValidator } from '#apps/validators/app_webhook_validator'
import { appWebhookListShapes, appWebhookShapes } from '#apps/transformers/app_webhook_transformer'
import { problemFor } from '#apps/http/problems'
import SendTestEvent from '#apps/services/send_test_event'
import { testEventShapes } from '#apps/transformers/app_event_transformer'

/** `/v3/appnotificaciones[/{topic}]`: the app's subscriptions to app-level events. */
export default class AppNotificationsController {
  @inject()
  async index(ctx: HttpContext, reader: AppWebhookReader) {
    const webhooks = await reader.all(ctx.caller)
    return respond(ctx, appWebhookListShapes(webhooks))
  }

  @inject()
  async show(ctx: HttpContext, reader: AppWebhookReader) {
    const webhook = await reader.find(ctx.caller, topicOf(ctx))
    if (!webhook) throw Problem.notFound('La aplicación no está suscripta a este tópico.')
    return respond(ctx, appWebhookShapes(webhook))
  }

  /** Sends a signed `Prueba` event now and reports how the receiver answered. */
  @inject()
  async test(ctx: HttpContext, sender: SendTestEvent) {
    const outcome = await sender.execute(ctx.caller, topicOf(ctx))
    if (!outcome) throw Problem.notFound('La aplicación no está suscripta a este tópico.')
    return respond(ctx, testEventShapes(outcome))
  }

  @inject()
  store(ctx: HttpContext, saver: SaveAppWebhook) {
    return save(ctx, saver, 'create')
  }

  @inject()
  update(ctx: HttpContext, saver: SaveAppWebhook) {
    return save(ctx, saver, 'replace')
  }
}

async function save(ctx: HttpContext, saver: SaveAppWebhook, mode: SaveMode) {
  const topic = topicOf(ctx)
  const input = await ctx.request.validateUsing(appWebhookValidator, { data: ctx.request.body() })
  const result = await saver.execute(ctx.caller, topic, input, mode)
  if (!result.ok) throw problemFor(result.reason)
  if (mode === 'replace') return respond(ctx, appWebhookShapes(result.value.webhook))
  const location = settings.publicUrl + path('appnotificaciones', topic)
  return respond(ctx, appWebhookShapes(result.value.webhook), { status: 201, location })
}

function topicOf(ctx: HttpContext): AppTopic {
  const topic = String(ctx.params.topic)
  if (!isAppTopic(topic)) throw Problem.notFound('El tópico no existe.')
  return topic
}
