/*
 * `npm start` on an empty database creates a demo app and prints its token
 * once (the newcomer's first request), and hands it on to the later steps
 * (the buyers module's demo data); later boots say how to get a token.
 */
import type { StartStep } from '#core/modules'
import App from '#apps/models/app'
import CreateApp from '#apps/services/create_app'

export const steps: StartStep[] = [
  {
    async run(context) {
      const { logger, ui, publicUrl } = context
      const existing = await App.query().orderBy('id').first()
      if (existing) {
        logger.info(`Apps exist already. A new token: npm run ace -- app:token ${existing.id}`)
        return
      }
      const { app, token } = await new CreateApp().execute('Demo', ['consultas:crear'])
      context.demoApp = { id: app.id, token }
      ui.sticker()
        .add(`Demo app ${app.id} created. Its token is shown only now:`)
        .add('')
        .add(token)
        .add('')
        .add(`curl -H "Authorization: Bearer ${token}" ${publicUrl}/v3`)
        .render()
    },
  },
]
