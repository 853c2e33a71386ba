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
 * Only stateless classes belong here: process-wide state is a `singleton`
 * (exactly one, made on first use; CredentialMemory, CatalogRevision), and
 * nothing here may keep anything between two requests.
 */
import app from '@adonisjs/core/services/app'

type Class = abstract new (...args: any[]) => object

export function buildOnce(...classes: Class[]) {
  for (const binding of classes) {
    app.container.resolving(binding, (instance) => {
      // What a test swapped in (a fake, a subclass) is never kept.
      if (instance.constructor === binding) app.container.bindValue(binding, instance as any)
    })
  }
}
