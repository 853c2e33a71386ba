/*
 * Reference data loaders of the modules (their providers, app/core/modules.ts), run by `npm start`
 * on every boot (each loader is idempotent and cheap when the data is there).
 */
import { contributions, type ReferenceDataLoader } from '#core/modules'

export type { ReferenceDataLoader }

export async function referenceDataLoaders(): Promise<ReferenceDataLoader[]> {
  const modules = await contributions('referenceData')
  return modules.flatMap((module) => module.loaders)
}
