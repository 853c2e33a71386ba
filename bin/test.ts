import './require_node.js'

process.env.NODE_ENV = 'test'

const { configure, processCLIArgs, run } = await import('@japa/runner')
const { createIgnitor, reportStartupError, APP_ROOT } = await import('./boot.js')
const { needsDatabase, testsRoot } = await import('./test_selection.js')

// A unit-only run neither starts PostgreSQL nor migrates: the unit suite needs no database.
const database = needsDatabase(process.argv.slice(2), testsRoot(APP_ROOT))

createIgnitor({ database })
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')
    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      setup: database ? runnerHooks.setup : [],
      teardown: runnerHooks.teardown.concat([() => app.terminate()]),
    })
  })
  .run(() => run())
  .catch(reportStartupError)
