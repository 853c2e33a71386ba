import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Catalogue: regions, cities, currencies, brands, models, versions.
 *
 * Name look-ups are case- and accent-insensitive and ranked: every searchable
 * table keeps a `search` column (folded name plus codenames, written by the
 * importers through `catalog_fold`) with a trigram GIN index, so `LIKE
 * '%…%'`, `%`/`<%` and `similarity()` are index-backed.
 */
export default class extends BaseSchema {
  async up() {
    // Both are trusted extensions (PostgreSQL ≥ 13): no superuser needed.
    this.schema.raw('create extension if not exists unaccent')
    this.schema.raw('create extension if not exists pg_trgm')
    // unaccent() is only STABLE; a wrapper pinned to its dictionary is safe to index.
    this.schema.raw(`
      create or replace function catalog_fold(text) returns text
      language sql immutable parallel safe strict
      as $$ select lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$
    `)

    this.schema.createTable('regions', (table) => {
      table.increments('id')
      table.string('country_code', 2).notNullable()
      table.string('code', 10).notNullable().unique()
      table.string('name', 100).notNullable()
      table.text('search').notNullable()
    })

    this.schema.createTable('cities', (table) => {
      table.increments('id')
      table.integer('region_id').notNullable().references('regions.id').onDelete('CASCADE')
      table.string('name', 150).notNullable()
      table.text('search').notNullable()
      table.unique(['region_id', 'name'])
    })

    this.schema.createTable('currencies', (table) => {
      table.string('code', 3).primary()
      table.string('name', 100).notNullable()
    })

    this.schema.createTable('brands', (table) => {
      table.increments('id')
      table.string('codename', 100).notNullable().unique()
      table.string('name', 100).notNullable()
      table.specificType('codenames', 'text[]').notNullable().defaultTo('{}')
      table.boolean('new_market').notNullable().defaultTo(false)
      table.text('search').notNullable()
    })

    this.schema.createTable('vehicle_models', (table) => {
      table.increments('id')
      table.integer('brand_id').notNullable().references('brands.id').onDelete('CASCADE')
      table.string('codename', 100).notNullable()
      table.string('name', 100).notNullable()
      table.specificType('body_types', 'text[]').notNullable().defaultTo('{}')
      table.boolean('new_market').notNullable().defaultTo(false)
      table.text('search').notNullable()
      table.unique(['brand_id', 'codename'])
    })

    this.schema.createTable('versions', (table) => {
      table.increments('id')
      table.integer('model_id').notNullable().references('vehicle_models.id').onDelete('CASCADE')
      table.string('codename', 150).notNullable()
      table.string('name', 150).notNullable()
      table.smallint('year').nullable()
      table.string('propulsion', 30).nullable()
      table.string('transmission', 20).nullable()
      table.integer('power').nullable()
      table.integer('displacement').nullable()
      table.string('body_type', 40).nullable()
      table.string('segment', 40).nullable()
      table.boolean('new_market').notNullable().defaultTo(false)
      table.text('search').notNullable()
    })

    this.schema.raw(
      'alter table versions add constraint versions_model_codename_year_unique unique nulls not distinct (model_id, codename, year)'
    )
    // Versions are only ever searched within one model (index on model_id): no trigram index there.
    for (const name of ['regions', 'cities', 'brands', 'vehicle_models']) {
      this.schema.raw(`create index ${name}_search_trgm on ${name} using gin (search gin_trgm_ops)`)
    }
    this.schema.raw('create index versions_model_year on versions (model_id, year)')
    this.schema.raw(
      'create index versions_model_new_market on versions (model_id) where new_market'
    )
  }

  async down() {
    this.schema.dropTable('versions')
    this.schema.dropTable('vehicle_models')
    this.schema.dropTable('brands')
    this.schema.dropTable('currencies')
    this.schema.dropTable('cities')
    this.schema.dropTable('regions')
    // The extensions stay: other schemas may use them, and they hold no data.
    this.schema.raw('drop function if exists catalog_fold(text)')
  }
}
