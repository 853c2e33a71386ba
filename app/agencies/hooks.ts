/*
 * What the agencies module needs from the modules that depend on it. They
 * register here from their `boot.ts` (start/modules.ts), so agencies imports
 * none of them and the module graph stays acyclic (docs/architecture.md).
 */
import app from '@adonisjs/core/services/app'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Result } from '#core/result'

type LazyService<T> = () => Promise<{ default: new (...args: any[]) => T }>

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

const handovers = new Map<string, LazyService<OperatorHandover>>()
const suspensionEffects = new Map<string, LazyService<SuspensionEffects>>()
let usageSource: LazyService<PlanUsageSource> | undefined

/** Registers `module`'s handover; detaches run them in registration (start/modules.ts) order. */
export function onOperatorDetached(module: string, handover: LazyService<OperatorHandover>) {
  handovers.set(module, handover)
}

/** Registers `module`'s share of suspensions and plan downgrades. */
export function onSuspension(module: string, effects: LazyService<SuspensionEffects>) {
  suspensionEffects.set(module, effects)
}

/** Registers the module that counts an agency's listings (listings). */
export function providePlanUsage(source: LazyService<PlanUsageSource>) {
  usageSource = source
}

export function operatorHandovers(): Promise<OperatorHandover[]> {
  return Promise.all([...handovers.values()].map(async (load) => make(load)))
}

export function suspensionEffectsOf(): Promise<SuspensionEffects[]> {
  return Promise.all([...suspensionEffects.values()].map(async (load) => make(load)))
}

export function planUsageSource(): Promise<PlanUsageSource> {
  if (!usageSource) throw new Error('No module provides plan usage (start/modules.ts)')
  return make(usageSource)
}

/** The hooks as an injectable collaborator of the agencies actions (unit specs pass a fake). */
export class AgencyHooks {
  operatorHandovers(): Promise<OperatorHandover[]> {
    return operatorHandovers()
  }

  suspensionEffects(): Promise<SuspensionEffects[]> {
    return suspensionEffectsOf()
  }

  planUsageSource(): Promise<PlanUsageSource> {
    return planUsageSource()
  }
}

async function make<T>(load: LazyService<T>): Promise<T> {
  const { default: Service } = await load()
  return app.container.make(Service)
}
