/*
 * The one way a feature module plugs into the application. `start/modules.ts`
 * lists every module and what it contributes (queues, OpenAPI, reference data,
 * commands); core reads those contributions here and never imports a module
 * (tests/unit/core/module_boundaries.spec.ts keeps it so).
 */
import type { JobDefinition } from '#core/jobs/types'
import type { OpenApiFragment } from '#core/openapi/helpers'
import type { DeadDeliveryHook } from '#core/outbound/deliveries'

export type ReferenceDataLoader = { name: string; load: () => Promise<string | void> }

type Lazy<T> = () => Promise<T>

export type FeatureModule = {
  name: string
  /** The module's `jobs.ts`: queues, handlers, schedules. */
  jobs?: Lazy<{ jobs: JobDefinition[] }>
  /** The module's OpenAPI paths and schemas. */
  openapi?: Lazy<{ openapi: OpenApiFragment }>
  /** Idempotent loaders `npm start` runs on every boot. */
  referenceData?: Lazy<{ loaders: ReferenceDataLoader[] }>
  /** Called in the transaction where any delivery goes dead (e.g. to tell the app, docs/design.md §14). */
  deliveryDead?: Lazy<{ onDeliveryDead: DeadDeliveryHook }>
}

let registered: FeatureModule[] = []

/** Called once by the start/modules.ts preload; the job runner learns the queues here. */
export async function registerModules(modules: FeatureModule[]) {
  registered = modules
  const { default: app } = await import('@adonisjs/core/services/app')
  const { default: JobRunner } = await import('#core/jobs/runner')
  const { moduleJobs } = await import('#core/jobs/registry')
  const runner = await app.container.make(JobRunner)
  runner.register(...(await moduleJobs()))
}

export function featureModules(): readonly FeatureModule[] {
  return registered
}

/** Everything the registered modules contribute under `part`, in module order. */
export async function contributions<
  Part extends 'jobs' | 'openapi' | 'referenceData' | 'deliveryDead',
>(part: Part) {
  const loaded = await Promise.all(registered.map((module) => module[part]?.()))
  return loaded.filter((entry) => entry !== undefined) as Awaited<
    ReturnType<NonNullable<FeatureModule[Part]>>
  >[]
}
