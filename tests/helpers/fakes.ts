/*
 * Shared pieces of the hand-rolled fakes that unit specs of actions pass
 * instead of stores (tests/unit/<module>/). A fake store is a plain class with
 * the store's public methods over arrays; it lives beside the spec that uses it.
 */
import type { Tx, UnitOfWork } from '#core/database/unit_of_work'

/** Stands in for a transaction: fake stores ignore it; a real store given it would fail loudly. */
export const FAKE_TX = Object.freeze({ isTransaction: true, fake: true }) as unknown as Tx

/** Runs the work at once, counting units committed and rolled back (the work threw). */
export class FakeUnitOfWork implements Pick<UnitOfWork, 'run'> {
  committed = 0
  rolledBack = 0

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      const value = await work(FAKE_TX)
      this.committed++
      return value
    } catch (error) {
      this.rolledBack++
      throw error
    }
  }
}
