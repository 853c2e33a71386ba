/*
 * A small catalogue of real Argentine names for tests: four provinces with a
 * few cities, ARS and USD, five brands with models and versions over several
 * model years. Idempotent (upserts by natural key); returns the ids.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ImportCatalog, {
  type CatalogData,
  type VersionInput,
} from '#catalog/services/import_catalog'

/** One version of the fixture; `newMarket` is only written when true. */
function version(
  name: string,
  year: number,
  propulsion: string,
  transmission: string,
  power: number,
  displacement: number,
  bodyType: string,
  segment: string,
  newMarket = false
): VersionInput {
  return {
    name,
    year,
    propulsion,
    transmission,
    power,
    displacement,
    bodyType,
    segment,
    ...(newMarket ? { newMarket } : {}),
  }
}

export const catalogFixture: CatalogData = {
  regions: [
    {
      code: 'AR-C',
      name: 'Ciudad Autónoma de Buenos Aires',
      cities: ['Ciudad Autónoma de Buenos Aires'],
    },
    {
      code: 'AR-B',
      name: 'Buenos Aires',
      cities: ['La Plata', 'Mar del Plata', 'San Isidro', 'San Miguel', 'Tigre'],
    },
    {
      code: 'AR-X',
      name: 'Córdoba',
      cities: ['Córdoba', 'Río Cuarto', 'Villa Carlos Paz', 'San Miguel'],
    },
    { code: 'AR-S', name: 'Santa Fe', cities: ['Rosario', 'Santa Fe', 'Rafaela'] },
  ],
  currencies: [
    { code: 'ARS', name: 'Peso argentino' },
    { code: 'USD', name: 'Dólar estadounidense' },
  ],
  brands: [
    {
      name: 'Toyota',
      models: [
        {
          name: 'Corolla',
          versions: [
            ...[2018, 2019, 2020, 2021, 2022, 2023].map((year) =>
              version('1.8 XEI CVT', year, 'Nafta', 'CVT', 140, 1798, 'Sedán', 'C')
            ),
            version('2.0 XEI CVT', 2024, 'Nafta', 'CVT', 170, 1987, 'Sedán', 'C', true),
            version('2.0 SEG CVT', 2024, 'Nafta', 'CVT', 170, 1987, 'Sedán', 'C', true),
            version('1.8 HEV SEG', 2024, 'Híbrido', 'CVT', 122, 1798, 'Sedán', 'C', true),
            version('1.8 XLI MT', 2015, 'Nafta', 'Manual', 140, 1798, 'Sedán', 'C'),
          ],
        },
        {
          name: 'Corolla Cross',
          versions: [
            version('2.0 XEI CVT', 2024, 'Nafta', 'CVT', 170, 1987, 'SUV', 'C', true),
            version('1.8 HEV SEG-G', 2024, 'Híbrido', 'CVT', 122, 1798, 'SUV', 'C', true),
          ],
        },
        {
          name: 'Hilux',
          versions: [
            version(
              '2.8 SRX 4x4 AT',
              2023,
              'Diésel',
              'Automática',
              204,
              2755,
              'Pick-up',
              'Pick-up mediana',
              true
            ),
            version(
              '2.4 DX 4x2 MT',
              2023,
              'Diésel',
              'Manual',
              150,
              2393,
              'Pick-up',
              'Pick-up mediana',
              true
            ),
          ],
        },
      ],
    },
    {
      name: 'Volkswagen',
      codenames: ['VW'],
      models: [
        {
          name: 'Gol Trend',
          versions: [
            version('1.6 Trendline', 2016, 'Nafta', 'Manual', 101, 1598, 'Hatchback', 'B'),
          ],
        },
        {
          name: 'Amarok',
          versions: [
            version(
              'V6 Extreme',
              2024,
              'Diésel',
              'Automática',
              258,
              2967,
              'Pick-up',
              'Pick-up mediana',
              true
            ),
          ],
        },
      ],
    },
    {
      name: 'Peugeot',
      models: [
        {
          name: '208',
          versions: [
            version(
              '1.6 Feline Tiptronic',
              2024,
              'Nafta',
              'Automática',
              115,
              1587,
              'Hatchback',
              'B',
              true
            ),
          ],
        },
        {
          name: '2008',
          versions: [version('1.6 Allure', 2019, 'Nafta', 'Manual', 115, 1587, 'SUV', 'B')],
        },
      ],
    },
    {
      name: 'Citroën',
      models: [
        {
          name: 'C3 Aircross',
          versions: [version('1.6 Feel', 2024, 'Nafta', 'Manual', 115, 1587, 'SUV', 'B', true)],
        },
      ],
    },
    {
      name: 'Mercedes-Benz',
      codenames: ['Mercedes', 'MB'],
      models: [
        {
          name: 'Sprinter',
          versions: [
            version('515 CDI Furgón', 2012, 'Diésel', 'Manual', 146, 2143, 'Furgón', 'Utilitario'),
          ],
        },
      ],
    },
  ],
}

export type CatalogSeed = {
  regions: Record<string, number>
  cities: Record<string, number>
  brands: Record<string, number>
  models: Record<string, number>
  /** Keyed `model/version codename/year`, e.g. `corolla/1-8-xei-cvt/2020`. */
  versions: Record<string, number>
}

let seeded: Promise<CatalogSeed> | null = null

/**
 * Loads the fixture once per run and returns its ids. Keys: region codes
 * (`AR-C`), `region code/city name` for cities (`AR-B/La Plata`), brand and
 * model codenames (`toyota`, `toyota/corolla`).
 */
export function seedCatalog(): Promise<CatalogSeed> {
  seeded ??= load()
  return seeded
}

async function load(): Promise<CatalogSeed> {
  await (await app.container.make(ImportCatalog)).execute(catalogFixture)
  const codes = catalogFixture.regions!.map((region) => region.code)
  const regions = await db.from('regions').whereIn('code', codes).select('id', 'code')
  const cities = await db
    .from('cities')
    .join('regions', 'regions.id', 'cities.region_id')
    .whereIn('regions.code', codes)
    .select('cities.id', 'cities.name', 'regions.code')
  const names = catalogFixture.brands!.map((brand) => brand.name)
  const brands = await db.from('brands').whereIn('name', names).select('id', 'codename')
  const models = await db
    .from('vehicle_models')
    .join('brands', 'brands.id', 'vehicle_models.brand_id')
    .whereIn('brands.name', names)
    .select('vehicle_models.id', 'vehicle_models.codename', 'brands.codename as brand')
  const versions = await db
    .from('versions')
    .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
    .join('brands', 'brands.id', 'vehicle_models.brand_id')
    .whereIn('brands.name', names)
    .select('versions.id', 'versions.codename', 'versions.year', 'vehicle_models.codename as model')
  return {
    regions: Object.fromEntries(regions.map((row) => [row.code, row.id])),
    cities: Object.fromEntries(cities.map((row) => [`${row.code}/${row.name}`, row.id])),
    brands: Object.fromEntries(brands.map((row) => [row.codename, row.id])),
    models: Object.fromEntries(models.map((row) => [`${row.brand}/${row.codename}`, row.id])),
    versions: Object.fromEntries(
      versions.map((row) => [`${row.model}/${row.codename}/${row.year}`, row.id])
    ),
  }
}
