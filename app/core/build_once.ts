/*
 * Classes the container builds once per process. AdonisJS builds every
 * middleware, controller and injected action anew for each request; a class
 * that holds nothing but its collaborators can serve every request from its
 * first instance instead. Listed here: the middleware of every request (core,
 * apps) and the actions of the busiest operations (module boots), whose graph
 * is then built once with them. A `make` costs 0.7 µs for a class without
 * collaborators, 2 µs with two, 0.45 µs once built (docs/performance.md,
 * "What a request builds").
 *
 * Only the web process (and the tests) imports them: a worker or a command
 * never answers a request. Only stateless classes belong here: process-wide state is a `singleton`
 * (exactly one, made on first use; CredentialMemory, CatalogRevision), and
 * nothing here may keep anything between two requests.
 */
import app from '@adonisjs/core/services/app'

type Class = abstract new (...args: any[]) => object
type Loader = () => Promise<{ default: Class }>

/** Processes that answer HTTP; a worker or a command never makes a controller, so it imports none. */
const SERVES_HTTP = new Set(['web', 'test'])

/** Imports each class (in a process that answers HTTP) and keeps its first instance. */
export async function buildOnce(...loaders: Loader[]) {
  if (!SERVES_HTTP.has(app.getEnvironment())) return
  for (const { default: binding } of await Promise.all(loaders.map((load) => load()))) {
    app.container.resolving(binding, (instance) => {
      // What a test swapped in (a fake, a subclass) is never kept.
      if (instance.constructor === binding) app.container.bindValue(binding, instance as any)
    })
  }
}
