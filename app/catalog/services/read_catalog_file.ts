/*
 * Reads a `catalog:import FILE`: JSON in the importer's form, or CSV with one
 * version per row (docs/catalog_import.md). Problems come back as a Result
 * naming the line or field, never as a stack trace.
 */
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { parse } from 'csv-parse/sync'
import { fail, ok, type Result } from '#core/result'
import type { BrandInput, CatalogData } from './import_catalog.js'

export const CSV_COLUMNS = [
  'brand',
  'model',
  'version',
  'year',
  'propulsion',
  'transmission',
  'power',
  'displacement',
  'body_type',
  'segment',
  'new_market',
] as const

export default class ReadCatalogFile {
  async execute(path: string): Promise<Result<CatalogData, 'unreadable' | 'invalid'>> {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      return fail('unreadable', { message: (error as Error).message })
    }
    return extname(path).toLowerCase() === '.csv' ? fromCsv(text) : fromJson(text)
  }
}

function fromJson(text: string): Result<CatalogData, 'invalid'> {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    return fail('invalid', { message: `JSON: ${(error as Error).message}` })
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return fail('invalid', {
      message: 'JSON: expected an object with regions, currencies and/or brands',
    })
  }
  const { regions, currencies, brands } = data as Record<string, unknown>
  for (const [key, value] of Object.entries({ regions, currencies, brands })) {
    if (value !== undefined && !Array.isArray(value))
      return fail('invalid', { message: `JSON: ${key} must be an array` })
  }
  const missing = [
    ...((regions as any[]) ?? []).map((r, i) =>
      !r?.code || !r?.name ? `regions[${i}]: code and name required` : null
    ),
    ...((currencies as any[]) ?? []).map((c, i) =>
      !/^[A-Za-z]{3}$/.test(c?.code ?? '') || !c?.name
        ? `currencies[${i}]: 3-letter code and name required`
        : null
    ),
    ...((brands as any[]) ?? []).flatMap((b, i) => [
      typeof b?.name !== 'string' || !b.name.trim() ? `brands[${i}]: name required` : null,
      ...((b?.models ?? []) as any[]).flatMap((m, j) => [
        typeof m?.name !== 'string' || !m.name.trim()
          ? `brands[${i}].models[${j}]: name required`
          : null,
        ...((m?.versions ?? []) as any[]).map((v, k) =>
          typeof v?.name !== 'string' || !v.name.trim() || !validYear(v.year ?? null)
            ? `brands[${i}].models[${j}].versions[${k}]: name required, year 1908..2050 or null`
            : null
        ),
      ]),
    ]),
  ].filter((message): message is string => message !== null)
  if (missing.length > 0) return fail('invalid', { message: missing.slice(0, 10).join('; ') })
  return ok(data as CatalogData)
}

function fromCsv(text: string): Result<CatalogData, 'invalid'> {
  let rows: Record<string, string>[]
  try {
    rows = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
    })
  } catch (error) {
    return fail('invalid', { message: `CSV: ${(error as Error).message}` })
  }
  const brands = new Map<string, BrandInput>()
  for (const [index, row] of rows.entries()) {
    const line = index + 2
    if (!row.brand || !row.model || !row.version)
      return fail('invalid', { message: `CSV line ${line}: brand, model and version are required` })
    const year = row.year ? Number(row.year) : null
    if (!validYear(year))
      return fail('invalid', { message: `CSV line ${line}: year must be an integer 1908..2050` })
    const brand = brands.get(row.brand.toLowerCase()) ?? { name: row.brand, models: [] }
    brands.set(row.brand.toLowerCase(), brand)
    let model = brand.models!.find(
      (candidate) => candidate.name.toLowerCase() === row.model.toLowerCase()
    )
    if (!model) brand.models!.push((model = { name: row.model, versions: [] }))
    model.versions!.push({
      name: row.version,
      year,
      propulsion: row.propulsion || null,
      transmission: row.transmission || null,
      power: row.power ? Number(row.power) : null,
      displacement: row.displacement ? Number(row.displacement) : null,
      bodyType: row.body_type || null,
      segment: row.segment || null,
      newMarket: ['1', 'true', 'si', 'sí', 'yes'].includes((row.new_market ?? '').toLowerCase()),
    })
  }
  return ok({ brands: [...brands.values()] })
}

function validYear(year: unknown) {
  return (
    year === null ||
    (Number.isInteger(year) && (year as number) >= 1908 && (year as number) <= 2050)
  )
}
