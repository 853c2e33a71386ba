/*
 * A small catalogue of real Argentine names for tests: four provinces with a
 * few cities, ARS and USD, five brands with models and versions over several
 * model years. Idempotent (upserts by natural key); returns the ids.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ImportCatalog, { type CatalogData } from '#catalog/services/import_catalog'

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
            ...[2018, 2019, 2020, 2021, 2022, 2023].map((year) => ({
              name: '1.8 XEI CVT',
              year,
              propulsion: 'Nafta',
              transmission: 'CVT',
              power: 140,
              displacement: 1798,
              bodyType: 'Sedán',
              segment: 'C',
            })),
            {
              name: '2.0 XEI CVT',
              year: 2024,
              propulsion: 'Nafta',
              transmission: 'CVT',
              power: 170,
              displacement: 1987,
              bodyType: 'Sedán',
              segment: 'C',
              newMarket: true,
            },
            {
              name: '2.0 SEG CVT',
              year: 2024,
              propulsion: 'Nafta',
              transmission: 'CVT',
              power: 170,
              displacement: 1987,
              bodyType: 'Sedán',
              segment: 'C',
              newMarket: true,
            },
            {
              name: '1.8 HEV SEG',
              year: 2024,
              propulsion: 'Híbrido',
              transmission: 'CVT',
              power: 122,
              displacement: 1798,
              bodyType: 'Sedán',
              segment: 'C',
              newMarket: true,
            },
            {
              name: '1.8 XLI MT',
              year: 2015,
              propulsion: 'Nafta',
              transmission: 'Manual',
              power: 140,
              displacement: 1798,
              bodyType: 'Sedán',
              segment: 'C',
            },
          ],
        },
        {
          name: 'Corolla Cross',
          versions: [
            {
              name: '2.0 XEI CVT',
              year: 2024,
              propulsion: 'Nafta',
              transmission: 'CVT',
              power: 170,
              displacement: 1987,
              bodyType: 'SUV',
              segment: 'C',
              newMarket: true,
            },
            {
              name: '1.8 HEV SEG-G',
              year: 2024,
              propulsion: 'Híbrido',
              transmission: 'CVT',
              power: 122,
              displacement: 1798,
              bodyType: 'SUV',
              segment: 'C',
              newMarket: true,
            },
          ],
        },
        {
          name: 'Hilux',
          versions: [
            {
              name: '2.8 SRX 4x4 AT',
              year: 2023,
              propulsion: 'Diésel',
              transmission: 'Automática',
              power: 204,
              displacement: 2755,
              bodyType: 'Pick-up',
              segment: 'Pick-up mediana',
              newMarket: true,
            },
            {
              name: '2.4 DX 4x2 MT',
              year: 2023,
              propulsion: 'Diésel',
              transmission: 'Manual',
              power: 150,
              displacement: 2393,
              bodyType: 'Pick-up',
              segment: 'Pick-up mediana',
              newMarket: true,
            },
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
            {
              name: '1.6 Trendline',
              year: 2016,
              propulsion: 'Nafta',
              transmission: 'Manual',
              power: 101,
              displacement: 1598,
              bodyType: 'Hatchback',
              segment: 'B',
            },
          ],
        },
        {
          name: 'Amarok',
          versions: [
            {
              name: 'V6 Extreme',
              year: 2024,
              propulsion: 'Diésel',
              transmission: 'Automática',
              power: 258,
              displacement: 2967,
              bodyType: 'Pick-up',
              segment: 'Pick-up mediana',
              newMarket: true,
            },
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
            {
              name: '1.6 Feline Tiptronic',
              year: 2024,
              propulsion: 'Nafta',
              transmission: 'Automática',
              power: 115,
              displacement: 1587,
              bodyType: 'Hatchback',
              segment: 'B',
              newMarket: true,
            },
          ],
        },
        {
          name: '2008',
          versions: [
            {
              name: '1.6 Allure',
              year: 2019,
              propulsion: 'Nafta',
              transmission: 'Manual',
              power: 115,
              displacement: 1587,
              bodyType: 'SUV',
              segment: 'B',
            },
          ],
        },
      ],
    },
    {
      name: 'Citroën',
      models: [
        {
          name: 'C3 Aircross',
          versions: [
            {
              name: '1.6 Feel',
              year: 2024,
              propulsion: 'Nafta',
              transmission: 'Manual',
              power: 115,
              displacement: 1587,
              bodyType: 'SUV',
              segment: 'B',
              newMarket: true,
            },
          ],
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
            {
              name: '515 CDI Furgón',
              year: 2012,
              propulsion: 'Diésel',
              transmission: 'Manual',
              power: 146,
              displacement: 2143,
              bodyType: 'Furgón',
              segment: 'Utilitario',
            },
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
