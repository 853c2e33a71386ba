import './require_node.js'

process.env.NODE_ENV = 'test'

const { configure, processCLIArgs, run } = await import('@japa/runner')
const { createIgnitor, reportStartupError } = await import('./boot.js')

createIgnitor()
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')
    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      setup: runnerHooks.setup,
      teardown: runnerHooks.teardown.concat([() => app.terminate()]),
    })
  })
  .run(() => run())
  .catch(reportStartupError)
