/*
 * The state of this process's database pools (the `db_pool` metrics): read
 * from Lucid's connection manager, no statement sent.
 */
import db from '@adonisjs/lucid/services/db'

export type PoolState = {
  connection: string
  used: number
  free: number
  pending: number
  max: number
}

export function poolStates(): PoolState[] {
  const states: PoolState[] = []
  for (const [connection, node] of db.manager.connections) {
    const tarn = node.connection?.pool
    if (!tarn) continue
    states.push({
      connection,
      used: tarn.numUsed(),
      free: tarn.numFree(),
      pending: tarn.numPendingAcquires(),
      max: (tarn as unknown as { max: number }).max,
    })
  }
  return states
}
