import type { QueueOptions, WorkOptions } from 'pg-boss'

export type JobContext = { id: string; name: string; retryCount: number }

/** A queue's handler: idempotent, since pg-boss delivers at least once. */
export interface JobHandler<T = any> {
  handle(data: T, job: JobContext): Promise<void>
}

/** What a module declares for each of its queues (its `jobs.ts`). */
export type JobDefinition<T = any> = {
  name: string
  queue?: Omit<QueueOptions, 'name'> & { deadLetter?: string }
  work?: Pick<
    WorkOptions,
    | 'batchSize'
    | 'localConcurrency'
    | 'pollingIntervalSeconds'
    | 'notifyPollingIntervalSeconds'
    | 'burstWhenBatchFull'
  >
  /** Cron expression (in TZ) for recurring jobs. */
  schedule?: string
  handler: () => Promise<{ default: JobHandlerClass<T> }>
}

/**
 * A handler class. Its optional static `warmUp` runs once when a worker starts working
 * the queue, so the first job does not pay for what every later one finds ready (a codec).
 */
export type JobHandlerClass<T = any> = (new (...args: any[]) => JobHandler<T>) & {
  warmUp?: () => Promise<void>
}
