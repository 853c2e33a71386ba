/*
 * What the agencies module needs from the modules that depend on it: three
 * hooks of the core registry (app/core/modules.ts), typed here. The listings
 * and leads providers register their handlers in `boot()`, so agencies imports
 * none of them and the module graph stays acyclic (docs/architecture.md).
 */
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Result } from '#core/result'
import ModuleRegistry from '#core/modules'

type ServiceModule<T> = { default: new (...args: any[]) => T }

/**
 * A module's share of a detach (docs/spec.md §4.3): moves the leaving
 * operator's work in the agency to the receiving member, inside the detach
 * transaction (`trx`, after the handover lock). A failure aborts the detach.
 */
export interface OperatorHandover {
  execute(
    agencyId: number,
    fromOperatorId: number,
    toOperatorId: number,
    trx: TransactionClientContract
  ): Promise<Result<unknown, 'unknown_operator'>>
}

/** Active listings per exposure level: what the agency's plan has in use. */
export type Usage = { high: number; medium: number; low: number }

export interface PlanUsageSource {
  usage(agencyId: number): Promise<Usage>
}

/**
 * A module's share of a suspension or a smaller plan (docs/design.md §14),
 * inside that change's transaction; each answers how many of its records it
 * suspended. Reinstating has no share: the app decides what to reactivate.
 */
export interface SuspensionEffects {
  agencySuspended(agencyId: number, trx: TransactionClientContract): Promise<number>
  operatorSuspended(operatorId: number, trx: TransactionClientContract): Promise<number>
  capacityLowered(
    agencyId: number,
    capacity: number,
    trx: TransactionClientContract
  ): Promise<number>
}

declare module '#core/modules' {
  interface Contributions {
    /** A module's handover of a detached operator's work; detaches run them in module order. */
    operatorHandover: ServiceModule<OperatorHandover>
    /** A module's share of suspensions and plan downgrades. */
    suspensionEffects: ServiceModule<SuspensionEffects>
    /** The module that counts an agency's listings (listings): one. */
    planUsage: ServiceModule<PlanUsageSource>
  }
}

/** The hooks as an injectable collaborator of the agencies actions (unit specs pass a fake). */
@inject()
export class AgencyHooks {
  constructor(private registry: ModuleRegistry) {}

  operatorHandovers(): Promise<OperatorHandover[]> {
    return this.#services<OperatorHandover>('operatorHandover')
  }

  suspensionEffects(): Promise<SuspensionEffects[]> {
    return this.#services<SuspensionEffects>('suspensionEffects')
  }

  async planUsageSource(): Promise<PlanUsageSource> {
    const [source] = await this.#services<PlanUsageSource>('planUsage')
    if (!source) throw new Error('No module provides plan usage (its provider’s boot())')
    return source
  }

  async #services<T>(part: 'operatorHandover' | 'suspensionEffects' | 'planUsage'): Promise<T[]> {
    const modules = (await this.registry.contributions(part)) as ServiceModule<T>[]
    return Promise.all(modules.map(({ default: Service }) => app.container.make(Service)))
  }
}
