import './require_node.js'

const { createIgnitor, reportStartupError } = await import('./boot.js')

createIgnitor().ace().handle(process.argv.splice(2)).catch(reportStartupError)
