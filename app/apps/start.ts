/*
 * `npm start` on an empty database creates a demo app and prints its token
 * once (the newcomer's first request), and hands it on to the later steps
 * (the buyers module's demo data); later boots say how to get a token.
 */
import app from '@adonisjs/core/services/app'
import type { StartStep } from '#core/modules'
import AppStore from '#apps/stores/app_store'
import CreateApp from '#apps/services/create_app'

export const steps: StartStep[] = [
  {
    async run(context) {
      const { logger, ui, publicUrl } = context
      const apps = await app.container.make(AppStore)
      const existing = await apps.first()
      if (existing) {
        logger.info(`Apps exist already. A new token: npm run ace -- app:token ${existing.id}`)
        return
      }
      const creator = await app.container.make(CreateApp)
      const { app: demo, token } = await creator.execute('Demo', ['consultas:crear'])
      context.demoApp = { id: demo.id, token }
      ui.sticker()
        .add(`Demo app ${demo.id} created. Its token is shown only now:`)
        .add('')
        .add(token)
        .add('')
        .add(`curl -H "Authorization: Bearer ${token}" ${publicUrl}/v3`)
        .render()
    },
  },
]
