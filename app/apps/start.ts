/*
 * `npm start` on an empty database creates a demo app and prints its token
 * once (the newcomer's first request); later boots say how to get a token.
 */
import app from '@adonisjs/core/services/app'
import type { StartStep } from '#core/modules'
import AppStore from '#apps/stores/app_store'
import CreateApp from '#apps/services/create_app'

export const steps: StartStep[] = [
  {
    async run({ logger, ui, publicUrl }) {
      const apps = await app.container.make(AppStore)
      const existing = await apps.first()
      if (existing) {
        logger.info(`Apps exist already. A new token: npm run ace -- app:token ${existing.id}`)
        return
      }
      const creator = await app.container.make(CreateApp)
      const { app: demo, token } = await creator.execute('Demo', ['consultas:crear'])
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
