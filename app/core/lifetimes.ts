/*
 * What lives once per process, said where it is bound. Each module's provider
 * (`app/<module>/provider.ts`, `register()`) binds its process-wide objects
 * here, each with the reason it lives that long; everything else the container
 * builds anew for each `make` (a request's controller, a job's action).
 *
 * Two promises come with it, kept by code rather than by comments:
 * - `check()` (run by the core provider when the app boots, in every
 *   environment) fails when a process-wide object depends, directly or through
 *   a collaborator, on `HttpContext` or on a class that is not process-wide:
 *   the first request's context (or a per-request object) would serve them all.
 * - A test's `container.swap` reaches the process-wide objects built on the
 *   swapped class, and its `restore` undoes it completely: both drop the
 *   instances of every singleton that depends on that class, which are then
 *   built again on first use (with the fake during the swap, without after).
 */
import type { Container, ContainerResolver } from '@adonisjs/core/container'
import { HttpContext } from '@adonisjs/core/http'

type Class<T = object> = abstract new (...args: any[]) => T
type Factory<T> = (resolver: ContainerResolver<any>) => T | Promise<T>

/** The constructor collaborators AdonisJS records for an `@inject()` class (`design:paramtypes`). */
export function collaborators(binding: unknown): unknown[] {
  const injections = (
    binding as { containerInjections?: Record<string, { dependencies: unknown[] }> }
  ).containerInjections
  return injections?._constructor?.dependencies ?? []
}

/** Builds `binding` from its `@inject()` collaborators, as the container would: a singleton's factory. */
export async function construct<T>(
  resolver: ContainerResolver<any>,
  binding: new (...args: any[]) => T
): Promise<T> {
  if (binding.length > collaborators(binding).length) {
    throw new Error(`${binding.name} needs @inject() (or a factory) to be built by the container`)
  }
  const values = await Promise.all(collaborators(binding).map((dep) => resolver.make(dep as Class)))
  return new binding(...values)
}

const nameOf = (binding: unknown) =>
  typeof binding === 'function' && binding.name ? binding.name : String(binding)

const ofContainer = new WeakMap<Container<any>, Lifetimes>()

export class Lifetimes {
  readonly #factories = new Map<Class, Factory<any>>()
  /** Bound once per process by the framework's own providers (e.g. the body parser). */
  readonly #framework = new Set<unknown>()

  /** The process-wide objects of `container` (one set per container: a unit test makes its own). */
  static of(container: Container<any>): Lifetimes {
    let lifetimes = ofContainer.get(container)
    if (!lifetimes) {
      lifetimes = new Lifetimes(container)
      ofContainer.set(container, lifetimes)
    }
    return lifetimes
  }

  private constructor(private container: Container<any>) {
    this.#followSwaps()
  }

  /**
   * Binds `binding` as one object per process, made on first use by `factory`,
   * or from its `@inject()` collaborators (which must be process-wide too).
   */
  singleton<T extends object>(binding: Class<T>, factory?: Factory<T>) {
    const make = factory ?? ((resolver) => construct(resolver, binding as new () => T))
    this.#factories.set(binding, make)
    this.container.singleton(binding, make)
  }

  /** Records a class a framework provider already binds once per process, so the check accepts it. */
  processWide(binding: Class) {
    this.#framework.add(binding)
  }

  isProcessWide(binding: unknown): boolean {
    return this.#factories.has(binding as Class) || this.#framework.has(binding)
  }

  /** Every process-wide binding, in the order they were bound. */
  bindings(): Class[] {
    return [...this.#factories.keys()]
  }

  /**
   * What breaks the lifetimes: each process-wide object that injects
   * `HttpContext`, or a class that is not process-wide (with the path through it
   * when that class itself leads to `HttpContext`).
   */
  problems(): string[] {
    const problems: string[] = []
    for (const binding of this.#factories.keys()) {
      for (const dep of collaborators(binding)) {
        if (this.isProcessWide(dep)) continue
        const path = [binding, ...this.#pathToContext(dep, new Set())]
        if (dep === HttpContext || path.length > 1) {
          const through = path.map(nameOf).join(' → ')
          problems.push(
            `${nameOf(binding)} is process-wide but depends on HttpContext (${through})`
          )
        } else {
          problems.push(
            `${nameOf(binding)} is process-wide but depends on ${nameOf(dep)}, which is built per use`
          )
        }
      }
    }
    return problems
  }

  /** Fails (at boot) when a process-wide object would keep something of one request or one use. */
  check() {
    const problems = this.problems()
    if (problems.length) {
      throw new Error(
        `Process-wide objects with shorter-lived collaborators (app/core/lifetimes.ts):\n- ${problems.join('\n- ')}`
      )
    }
  }

  /** `[binding, …, HttpContext]` when `binding` reaches HttpContext, else `[]`. */
  #pathToContext(binding: unknown, seen: Set<unknown>): unknown[] {
    if (binding === HttpContext) return [binding]
    if (seen.has(binding)) return []
    seen.add(binding)
    for (const dep of collaborators(binding)) {
      const path = this.#pathToContext(dep, seen)
      if (path.length) return [binding, ...path]
    }
    return []
  }

  #dependsOn(binding: unknown, on: unknown, seen = new Set<unknown>()): boolean {
    if (seen.has(binding)) return false
    seen.add(binding)
    return collaborators(binding).some((dep) => dep === on || this.#dependsOn(dep, on, seen))
  }

  /** Drops the instance of every singleton built on `binding`: the next use builds it anew. */
  #rebuildOn(binding: unknown) {
    for (const [singleton, factory] of this.#factories) {
      if (this.#dependsOn(singleton, binding)) this.container.singleton(singleton, factory)
    }
  }

  /** A swap and its restore reach the singletons built on the swapped class (see the header). */
  #followSwaps() {
    const container = this.container
    const swap = container.swap.bind(container)
    const restore = container.restore.bind(container)
    const restoreAll = container.restoreAll.bind(container)
    container.swap = (binding, resolver) => {
      swap(binding, resolver)
      this.#rebuildOn(binding)
    }
    container.restore = (binding) => {
      restore(binding)
      this.#rebuildOn(binding)
    }
    container.restoreAll = (bindings) => {
      restoreAll(bindings)
      if (bindings) for (const binding of bindings) this.#rebuildOn(binding)
      else
        for (const [singleton, factory] of this.#factories) container.singleton(singleton, factory)
    }
  }
}
