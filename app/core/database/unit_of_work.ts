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
  /**
   * Another connection than the default one (a test's fresh database, the
   * catalogue import), or the caller's transaction: the work then runs in a
   * savepoint of it, rolled back alone if the work fails.
   */
  client?: QueryClientContract
}

export class UnitOfWork {
  run<T>(work: (tx: Tx) => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const { client, ...transaction } = options
    // Inside a transaction this is a savepoint; Lucid passes options on to knex as its
    // callback there, so a savepoint gets none.
    if (client?.isTransaction) return client.transaction(work)
    return (client ?? db).transaction(work, transaction)
  }
}

export default UnitOfWork
