/** The process's job runner, for modules that enqueue work. */
import app from '@adonisjs/core/services/app'
import JobRunner from './runner.js'

let runner: JobRunner

await app.booted(async () => {
  runner = await app.container.make(JobRunner)
})

export { runner as default }
