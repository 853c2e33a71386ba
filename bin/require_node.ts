/*
 * Node.js 24 is required (package.json engines). Every entry point imports
 * this first and loads the framework afterwards, so an older Node stops here
 * with one line instead of starting half-working or failing with a stack.
 */
const [major] = process.versions.node.split('.').map(Number)
if (major < 24) {
  console.error(
    `Node.js 24 or newer is required, this is ${process.versions.node} (${process.execPath}): ` +
      'run through npm (npm start, npm run ace -- …) or node_modules/.bin/node, which the install provides.'
  )
  process.exit(1)
}

export {}
