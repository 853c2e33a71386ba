/*
 * The modules' reactions to a delivery gone dead (`deliveryDead`, contributed
 * in their provider's boot() to the registry, app/core/modules.ts): core
 * imports no module. A collaborator of DeliveryService, so unit specs hand it
 * their own hooks.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import ModuleRegistry from '#core/modules'
import type Delivery from './models/delivery.js'

/**
 * A module's reaction to a delivery that just went dead, run in the
 * transaction that records it (an outbox write commits with it).
 */
export type DeadDeliveryHook = (delivery: Delivery, tx: Tx) => Promise<void>

@inject()
export default class DeadDeliveryHooks {
  constructor(private registry: ModuleRegistry) {}

  /** Every registered hook, in module order. */
  async all(): Promise<DeadDeliveryHook[]> {
    const contributed = await this.registry.contributions('deliveryDead')
    return contributed.map((entry) => entry.onDeliveryDead)
  }
}
