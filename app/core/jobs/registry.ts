/*
 * Every module's queues, in one list. A module adds its `jobs.ts` here; the
 * runner creates the queues, registers handlers and schedules from it.
 */
import type { JobDefinition } from './types.js'

export async function moduleJobs(): Promise<JobDefinition[]> {
  const modules = await Promise.all([
    // Modules register their queues here, e.g. import('#listings/jobs').
    import('#core/outbound/jobs'),
    import('#apps/jobs'),
    import('#buyers/jobs'),
    import('#agencies/jobs'),
    import('#leads/jobs'),
    import('#listings/jobs'),
  ] as Promise<{ jobs: JobDefinition[] }>[])
  return modules.flatMap((module) => module.jobs)
}
