/*
 * Ace entry point. TypeScript runs through @poppinss/ts-exec in development;
 * the production build replaces this file with one importing compiled JS
 * (bin/console.js, which checks the Node version the same way).
 */
if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(
    `Node.js 24 or newer is required, this is ${process.versions.node} (${process.execPath}): ` +
      'run through npm (npm start, npm run ace -- …) or node_modules/.bin/node, which the install provides.'
  )
  process.exit(1)
}

await import('@poppinss/ts-exec')
await import('./bin/console.js')
