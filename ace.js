/*
 * Ace entry point. TypeScript runs through @poppinss/ts-exec in development;
 * the production build replaces this file with one importing compiled JS.
 */
import '@poppinss/ts-exec'

await import('./bin/console.js')
