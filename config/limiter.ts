import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/** The database store keeps limits shared between web processes. */
const limiterConfig = defineConfig({
  default: env.get('LIMITER_STORE') ?? 'database',
  stores: {
    database: stores.database({ tableName: 'rate_limits' }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
