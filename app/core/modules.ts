/*
 * The one typed registry through which a feature module plugs into the
 * application. Each module's provider (`app/<module>/provider.ts`, listed in
 * adonisrc.ts in the modules' order) contributes in its `boot()`: its queues,
 * OpenAPI fragment, reference data, start steps, scrape-time metrics and its
 * handlers on the hooks of the modules above it. Core reads them here and never
 * imports a module (tests/unit/core/module_boundaries.spec.ts keeps it so).
 *
 * A module that offers a hook of its own adds it to `Contributions` by
 * declaration merging (agencies: app/agencies/hooks.ts), so a handler of the
 * wrong shape does not compile. Every contribution is loaded when first read:
 * registering imports nothing.
 */
import app from '@adonisjs/core/services/app'
import type { BaseCommand } from '@adonisjs/core/ace'
import type { JobDefinition } from '#core/jobs/types'
import type { OpenApiFragment } from '#core/openapi/helpers'
import type { ScrapeSet } from '#core/metrics/types'
import type { DeadDeliveryHook } from '#core/outbound/dead_hooks'

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

/** Each kind of contribution, as the file that provides it exports it. */
export interface Contributions {
  /** The module's `jobs.ts`: queues, handlers, schedules. */
  jobs: { jobs: JobDefinition[] }
  /** The module's OpenAPI paths and schemas. */
  openapi: { openapi: OpenApiFragment }
  /** Idempotent loaders `npm start` runs on every boot. */
  referenceData: { loaders: ReferenceDataLoader[] }
  /** Steps `npm start` runs after the reference data, before serving (e.g. the demo app). */
  start: { steps: StartStep[] }
  /** Gauges read at scrape time for `GET /metrics` (docs/design.md §14). */
  metrics: { metrics: ScrapeSet[] }
  /** Called in the transaction where any delivery goes dead (e.g. to tell the app, docs/design.md §14). */
  deliveryDead: { onDeliveryDead: DeadDeliveryHook }
}

export type Part = keyof Contributions
export type Parts = { [P in Part]?: () => Promise<Contributions[P]> }

type Entry = { name: string; parts: Parts }

export default class ModuleRegistry {
  #modules: Entry[] = []

  /**
   * Adds module `name`'s contributions at the end (provider order), or just
   * before the module named `before` (a test's own hook, run before leads').
   * Returns what takes them away again.
   */
  contribute(name: string, parts: Parts, options: { before?: string } = {}): () => void {
    const entry = { name, parts }
    const at = options.before ? this.#modules.findIndex((m) => m.name === options.before) : -1
    if (at < 0) this.#modules.push(entry)
    else this.#modules.splice(at, 0, entry)
    return () => {
      this.#modules = this.#modules.filter((m) => m !== entry)
    }
  }

  /** The contributing modules' names, in order. */
  modules(): string[] {
    return this.#modules.map((m) => m.name)
  }

  /** Everything the modules contribute under `part`, in module order. */
  async contributions<P extends Part>(part: P): Promise<Contributions[P][]> {
    const loaded = await Promise.all(this.#modules.map((m) => m.parts[part]?.()))
    return loaded.filter((entry) => entry !== undefined) as Contributions[P][]
  }
}

/** The app's registry's contributions under `part`: for code the container does not build. */
export async function contributions<P extends Part>(part: P): Promise<Contributions[P][]> {
  const registry = await app.container.make(ModuleRegistry)
  return registry.contributions(part)
}
