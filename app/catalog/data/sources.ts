/*
 * The bundled reference data, read from installed packages and normalised to
 * the importer's form (docs/catalog_import.md):
 * - regions and cities: @countrystatecity/countries (ODbL-1.0), Argentina;
 * - currencies: ISO 4217 codes with Spanish names from the ICU/CLDR data built
 *   into Node (Intl);
 * - brands, models, versions: car-json-datasets (MIT), one JSON per make.
 */
import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { BrandInput, CatalogData, CurrencyInput, ModelInput, RegionInput, VersionInput } from '#catalog/services/import_catalog'

export const SOURCES = {
  places: { name: '@countrystatecity/countries', version: '1.0.9', licence: 'ODbL-1.0' },
  // `+segment`: versions carry a derived Segmento; the changed mark re-imports existing databases once.
  vehicles: { name: 'car-json-datasets', version: '0.3.2+segment', licence: 'MIT' },
  currencies: { name: 'ISO 4217 (Intl, CLDR)', version: process.versions.icu ?? 'icu', licence: 'Unicode-3.0' },
}

/** Official Spanish names where the data set's `native` differs in spelling. */
const REGION_NAMES: Record<string, string> = { 'AR-C': 'Ciudad Autónoma de Buenos Aires' }

export async function argentinaPlaces(): Promise<RegionInput[]> {
  const { getStatesOfCountry, getCitiesOfState } = await import('@countrystatecity/countries')
  const states = await getStatesOfCountry('AR')
  return Promise.all(
    states.map(async (state) => {
      const code = state.iso3166_2 ?? `AR-${state.iso2}`
      const cities = await getCitiesOfState('AR', state.iso2)
      return {
        code,
        countryCode: 'AR',
        name: REGION_NAMES[code] ?? state.native ?? state.name,
        cities: cities.map((city) => city.native ?? city.name),
      }
    })
  )
}

export function iso4217Currencies(): CurrencyInput[] {
  const names = new Intl.DisplayNames(['es-AR', 'es'], { type: 'currency' })
  return Intl.supportedValuesOf('currency').map((code) => {
    const name = names.of(code) ?? code
    return { code, name: name.charAt(0).toLocaleUpperCase('es') + name.slice(1) }
  })
}

/** Spanish spellings and the short names Argentine dealers use, by the source's make folder. */
const BRAND_NAMES: Record<string, { name?: string; codenames?: string[] }> = {
  'citroen': { name: 'Citroën' },
  'volkswagen': { codenames: ['VW'] },
  'mercedes-benz': { codenames: ['Mercedes', 'MB'] },
  'alfa-romeo': { codenames: ['Alfa'] },
  'great-wall': { codenames: ['GWM'] },
  'land-rover': { codenames: ['Range Rover'] },
  'chevrolet': { codenames: ['Chevy'] },
}

/** Model years before this are left out: older versions are not what dealers list. */
export const FIRST_YEAR = 2000

type SourceEngine = { engineCylinderLabel: string; traction?: string; transmissionType?: string }
type SourceMake = {
  make: string
  models: {
    name: string
    maxYear: number | null
    series: { name: string; startYear: number; endYear: number | null; bodyTypes: { type: string; engines: SourceEngine[] }[] }[]
  }[]
}

export async function carJsonBrands(currentYear = new Date().getFullYear()): Promise<BrandInput[]> {
  const root = join(dirname(createRequire(import.meta.url).resolve('car-json-datasets/package.json')), 'data')
  const makes = await readdir(root)
  makes.sort()
  const brands: BrandInput[] = []
  for (const make of makes) {
    const source = JSON.parse(await readFile(join(root, make, `${make}.json`), 'utf8')) as SourceMake
    brands.push({
      name: BRAND_NAMES[make]?.name ?? source.make,
      codename: make,
      codenames: BRAND_NAMES[make]?.codenames,
      models: source.models.map((model) => toModel(model, currentYear)),
    })
  }
  return brands
}

function toModel(model: SourceMake['models'][number], currentYear: number): ModelInput {
  const versions: VersionInput[] = []
  for (const series of model.series) {
    const last = Math.min(series.endYear ?? currentYear, currentYear)
    for (const body of series.bodyTypes) {
      for (const engine of body.engines) {
        const name = [engine.engineCylinderLabel, engine.transmissionType, engine.traction]
          .filter(Boolean)
          .join(' ')
          .slice(0, 110)
        // Worked out once per engine, not once per model year.
        const version = {
          name: `${name} (${series.name})`.slice(0, 150),
          codename: [series.name, body.type, name].join(' '),
          propulsion: propulsionWord(engine.engineCylinderLabel),
          transmission: transmissionWord(engine.transmissionType),
          displacement: displacementOf(engine.engineCylinderLabel),
          power: powerOf(engine.engineCylinderLabel),
          bodyType: bodyWord(body.type),
        }
        for (let year = Math.max(series.startYear, FIRST_YEAR); year <= last; year++) {
          // Still built and this is the latest model year: on the new-vehicle market.
          versions.push({ ...version, year, newMarket: series.endYear === null && year === currentYear })
        }
      }
    }
  }
  return { name: model.name, versions, bodyTypes: model.series.flatMap((s) => s.bodyTypes.map((b) => bodyWord(b.type) ?? '')) }
}

/** Fuel words of the source ("2.0L I4 Petrol", "Hybrid", "PHEV") in English. */
export function propulsionWord(label: string): string | null {
  const text = label.toLowerCase()
  if (/phev|plug-in/.test(text)) return 'plug-in hybrid'
  if (/hybrid|hev\b/.test(text)) return 'hybrid'
  if (/electric|\bkw\b|\bev\b|motor/.test(text)) return 'electric'
  if (/cng|natural gas/.test(text)) return 'cng'
  if (/diesel|tdi|crdi|dci|hdi|cdi|d-4d/.test(text)) return 'diesel'
  if (/petrol|gasoline|turbo|\bi\d|\bv\d|ethanol|flex/.test(text)) return 'petrol'
  return null
}

export function transmissionWord(type: string | undefined): string | null {
  const text = (type ?? '').toLowerCase()
  if (!text) return null
  if (/cvt|continuously/.test(text)) return 'cvt'
  if (/dsg|dct|dual-clutch|s tronic|pdk|automated|amt|sequential|smg/.test(text)) return 'automated'
  if (/manual/.test(text)) return 'manual'
  if (/automatic|matic|speed|glide|fixed gear/.test(text)) return 'automatic'
  return null
}

const BODY_WORDS: [RegExp, string][] = [
  [/chassis/, 'chassis'],
  [/pick-?up|\bute\b|utility|truck|crew cab|double cab|single cab|regular cab/, 'pickup'],
  [/minibus|\bbus\b/, 'minibus'],
  [/panel van|cargo van|delivery/, 'cargo van'],
  [/minivan|\bmpv\b|people carrier/, 'minivan'],
  [/\bvan\b|combi/, 'van'],
  [/suv|crossover|off-road|4x4/, 'suv'],
  [/convertible|cabrio|roadster|spyder|spider|targa|speedster/, 'convertible'],
  [/coupe|coupé|hardtop|fastback/, 'coupe'],
  [/wagon|estate|touring|avant|shooting brake|sportsvan/, 'wagon'],
  [/hatch|liftback|sportback/, 'hatchback'],
  [/sedan|saloon|limousine/, 'sedan'],
]

export function bodyWord(type: string): string | null {
  const text = type.toLowerCase()
  return BODY_WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? null
}

/** "2.0L" → 2000 cc (the source gives litres to one decimal: approximate). */
export function displacementOf(label: string): number | null {
  const litres = label.match(/(\d+(?:\.\d+)?)\s*L\b/i)
  if (litres) return Math.round(Number(litres[1]) * 1000)
  const cc = label.match(/(\d{3,4})\s*cc\b/i)
  return cc ? Number(cc[1]) : null
}

/** Horsepower when the label states it ("(150 hp)", "110 PS", "100 kW"). */
export function powerOf(label: string): number | null {
  const hp = label.match(/(\d{2,4})\s*(?:hp|cv|bhp)\b/i)
  if (hp) return Number(hp[1])
  const ps = label.match(/(\d{2,4})\s*PS\b/)
  if (ps) return Math.round(Number(ps[1]) * 0.98632)
  const kw = label.match(/(\d{2,4})\s*kW\b/i)
  return kw ? Math.round(Number(kw[1]) * 1.34102) : null
}

export async function bundledCatalog(): Promise<CatalogData> {
  const [regions, brands] = await Promise.all([argentinaPlaces(), carJsonBrands()])
  return { regions, currencies: iso4217Currencies(), brands }
}
