import './require_node.js'

const { createIgnitor, reportStartupError } = await import('./boot.js')
const { databaseModeOf } = await import('#core/database/embedded')

const argv = process.argv.splice(2)
// The command as ace finds it: the first argument that is not a flag.
const database = databaseModeOf(argv.find((value) => !value.startsWith('-')))

createIgnitor({ database }).ace().handle(argv).catch(reportStartupError)
