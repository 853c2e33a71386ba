import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/**
 * Memory by default: one web process needs no database write per request
 * (measured: the database store costs ~4× throughput). With several web
 * processes set LIMITER_STORE=database so the limit is shared.
 */
const limiterConfig = defineConfig({
  default: env.get('LIMITER_STORE') ?? 'memory',
  stores: {
    database: stores.database({ tableName: 'rate_limits' }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
