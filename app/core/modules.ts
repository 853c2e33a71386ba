/*
 * The one way a feature module plugs into the application. `start/modules.ts`
 * lists every module and what it contributes (queues, OpenAPI, reference data,
 * start steps, boot hooks; commands in start/commands.ts); core reads those
 * contributions here and never imports a module
 * (tests/unit/core/module_boundaries.spec.ts keeps it so).
 */
import type { BaseCommand } from '@adonisjs/core/ace'
import type { JobDefinition } from '#core/jobs/types'
import type { OpenApiFragment } from '#core/openapi/helpers'
import type { ScrapeSet } from '#core/metrics/types'
import type { DeadDeliveryHook } from '#core/outbound/deliveries'

export type ReferenceDataLoader = { name: string; load: () => Promise<string | void> }

/**
 * What a start step may use of the `npm start` command: its output, and what
 * an earlier step of this boot handed on (the apps module's demo app and token,
 * when it created them now: the buyers module's demo data builds on them).
 */
export type StartContext = Pick<BaseCommand, 'logger' | 'ui'> & {
  publicUrl: string
  demoApp?: { id: number; token: string }
}
export type StartStep = { run: (context: StartContext) => Promise<void> }

type Lazy<T> = () => Promise<T>

export type FeatureModule = {
  name: string
  /**
   * The module's `boot.ts`: registers its handlers on the hooks of the modules
   * it depends on (e.g. agencies' operator handover), so those never import it.
   * Run once, in list order, when the modules are registered.
   */
  boot?: Lazy<{ boot: () => void | Promise<void> }>
  /** The module's `jobs.ts`: queues, handlers, schedules. */
  jobs?: Lazy<{ jobs: JobDefinition[] }>
  /** The module's OpenAPI paths and schemas. */
  openapi?: Lazy<{ openapi: OpenApiFragment }>
  /** Idempotent loaders `npm start` runs on every boot. */
  referenceData?: Lazy<{ loaders: ReferenceDataLoader[] }>
  /** Steps `npm start` runs after the reference data, before serving (e.g. the demo app). */
  start?: Lazy<{ steps: StartStep[] }>
  /** Gauges read at scrape time for `GET /metrics` (docs/design.md §14). */
  metrics?: Lazy<{ metrics: ScrapeSet[] }>
  /** Called in the transaction where any delivery goes dead (e.g. to tell the app, docs/design.md §14). */
  deliveryDead?: Lazy<{ onDeliveryDead: DeadDeliveryHook }>
}

type Part = Exclude<keyof FeatureModule, 'name'>

let registered: FeatureModule[] = []

/** Called once by the start/modules.ts preload; the job runner learns the queues here. */
export async function registerModules(modules: FeatureModule[]) {
  registered = modules
  for (const hooks of await contributions('boot')) await hooks.boot()
  const { default: app } = await import('@adonisjs/core/services/app')
  const { default: JobRunner } = await import('#core/jobs/runner')
  const { moduleJobs } = await import('#core/jobs/registry')
  const runner = await app.container.make(JobRunner)
  runner.register(...(await moduleJobs()))
}

/**
 * Adds `module`'s contributions at the end, or just before the module named
 * `before`, until the returned function takes them away: for tests that need a
 * contribution of their own (e.g. a hook that fails). Runs no boot, registers no jobs.
 */
export function addModule(module: FeatureModule, options: { before?: string } = {}) {
  const at = options.before ? registered.findIndex((entry) => entry.name === options.before) : -1
  registered =
    at < 0 ? [...registered, module] : [...registered.slice(0, at), module, ...registered.slice(at)]
  return () => {
    registered = registered.filter((entry) => entry !== module)
  }
}

export function featureModules(): readonly FeatureModule[] {
  return registered
}

/** Everything the registered modules contribute under `part`, in module order. */
export async function contributions<P extends Part>(part: P) {
  const loaded = await Promise.all(registered.map((module) => module[part]?.()))
  return loaded.filter((entry) => entry !== undefined) as Awaited<
    ReturnType<NonNullable<FeatureModule[P]>>
  >[]
}
