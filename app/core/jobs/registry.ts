/*
 * Every module's queues, as their providers contribute them (app/core/modules.ts). The runner creates
 * the queues, registers handlers and schedules from this list.
 */
import { contributions } from '#core/modules'
import type { JobDefinition } from './types.js'

export async function moduleJobs(): Promise<JobDefinition[]> {
  const modules = await contributions('jobs')
  return modules.flatMap((module) => module.jobs)
}
