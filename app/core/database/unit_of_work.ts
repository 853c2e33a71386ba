/*
 * The one way an action opens a transaction: `await this.unitOfWork.run(async (tx) => …)`.
 * Stores take that `tx` as their last argument (absent: the pool). Controllers,
 * jobs and commands never open one; unit specs of actions pass a fake
 * (`tests/helpers/fakes.ts`) whose `run` calls the work with a stand-in.
 */
import db from '@adonisjs/lucid/services/db'
import type {
  IsolationLevels,
  QueryClientContract,
  TransactionClientContract,
} from '@adonisjs/lucid/types/database'

/** The transaction an action opened, handed to the stores it calls. */
export type Tx = TransactionClientContract

export type UnitOfWorkOptions = {
  isolationLevel?: IsolationLevels
  /** Another connection than the default one (a test's fresh database, the catalogue import). */
  client?: QueryClientContract
}

export class UnitOfWork {
  run<T>(work: (tx: Tx) => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const { client, ...transaction } = options
    return (client ?? db).transaction(work, transaction)
  }
}

export default UnitOfWork
