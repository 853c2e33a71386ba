/*
 * Reference data loaders of the modules, run by `npm start` on every boot
 * (each loader is idempotent and cheap when the data is already there).
 */
export type ReferenceDataLoader = { name: string; load: () => Promise<string | void> }

export async function referenceDataLoaders(): Promise<ReferenceDataLoader[]> {
  const modules = await Promise.all([
    // Modules add theirs here, e.g. import('#catalog/reference_data').
    import('#catalog/reference_data'),
  ] as Promise<{ loaders: ReferenceDataLoader[] }>[])
  return modules.flatMap((module) => module.loaders)
}
