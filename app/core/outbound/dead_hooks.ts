/*
 * The modules' reactions to a delivery gone dead (`deliveryDead` in
 * start/modules.ts), read where they are registered: core imports no module.
 * A collaborator of DeliveryService, so unit specs hand it their own hooks.
 */
import type { Tx } from '#core/database/unit_of_work'
import { contributions } from '#core/modules'
import type Delivery from './models/delivery.js'

/**
 * A module's reaction to a delivery that just went dead, run in the
 * transaction that records it (an outbox write commits with it).
 */
export type DeadDeliveryHook = (delivery: Delivery, tx: Tx) => Promise<void>

export default class DeadDeliveryHooks {
  /** Every registered hook, in module order. */
  async all(): Promise<DeadDeliveryHook[]> {
    const contributed = await contributions('deliveryDead')
    return contributed.map((entry) => entry.onDeliveryDead)
  }
}
