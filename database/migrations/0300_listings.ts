import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Listings module: the listings an app publishes for an agency, and their
 * photos. Names of the catalogue entries, the location and the responsible
 * operator's e-mail are copied at write time so that a GET is one query.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('listings', (table) => {
      table.increments('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.integer('agency_id').notNullable()
      // The agency's administrator e-mail (its immutable identity, docs/spec.md §1), copied so that a
      // GET by {adminmail}/{externalid} is one query.
      table.string('admin_email', 254).notNullable()
      table.string('external_id', 255).notNullable()
      table.string('ref_stock', 25).nullable()
      // active | suspended | archived (terminal)
      table.string('state', 10).notNullable()
      table.integer('revision').notNullable().defaultTo(1)
      // high | medium | low
      table.string('exposure', 6).notNullable()
      table.integer('operator_id').notNullable()
      table.string('operator_email', 254).notNullable()
      // Catalogue ids when known; the names are always kept (a free version name has no id).
      table.integer('brand_id').nullable()
      table.integer('model_id').nullable()
      table.integer('version_id').nullable()
      table.string('brand_name', 100).notNullable()
      table.string('model_name', 100).notNullable()
      table.string('version_name', 150).notNullable()
      table.string('body_type', 60).nullable()
      table.string('transmission', 20).notNullable()
      table.string('propulsion', 20).notNullable()
      table.smallint('year').notNullable()
      table.integer('mileage').notNullable()
      table.string('colour', 50).nullable()
      table.text('description').nullable()
      // [{ name, value }]: the free technical sheet, or the catalogue's data for known versions.
      table.jsonb('custom_specs').notNullable().defaultTo('[]')
      table.specificType('price_currency', 'char(3)').nullable()
      table.decimal('price_amount', 14, 2).nullable()
      table.specificType('down_payment_currency', 'char(3)').nullable()
      table.decimal('down_payment_amount', 14, 2).nullable()
      table.specificType('installment_currency', 'char(3)').nullable()
      table.decimal('installment_amount', 14, 2).nullable()
      table.boolean('warranty_certificate').notNullable().defaultTo(false)
      table.integer('region_id').nullable()
      table.integer('city_id').nullable()
      table.string('region_name', 200).nullable()
      table.string('city_name', 200).nullable()
      table.string('address', 200).nullable()
      table.string('phone', 20).nullable()
      table.string('slug', 200).notNullable().unique()
      // Kept by the photo writes in their transactions: the storage keys of the ready photos in
      // order, and how many photos the listing has in any state. A GET reads no other table.
      table.jsonb('photo_keys').notNullable().defaultTo('[]')
      table.smallint('photo_count').notNullable().defaultTo(0)
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
    })
    // ExternalId is unique per agency, case-insensitively; the GET path reads through this index.
    this.schema.raw(
      'create unique index listings_agency_external on listings (agency_id, lower(external_id))'
    )
    this.schema.raw(
      'create index listings_app_admin_external on listings (app_id, admin_email, lower(external_id))'
    )
    this.schema.raw(
      'create index listings_app_agency_state on listings (app_id, agency_id, state, id)'
    )
    this.schema.raw(
      "create index listings_agency_active on listings (agency_id, exposure) where state = 'active'"
    )
    this.schema.raw('create index listings_operator on listings (agency_id, operator_id)')

    this.schema.createTable('listing_photos', (table) => {
      table.increments('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.integer('listing_id').notNullable().references('listings.id').onDelete('CASCADE')
      table.smallint('position').notNullable()
      table.text('source_url').notNullable()
      // pending | ready | rejected
      table.string('state', 8).notNullable().defaultTo('pending')
      table.string('reason', 300).nullable()
      table.string('storage_key', 200).nullable()
      table.string('thumbnail_key', 200).nullable()
      table.integer('width').nullable()
      table.integer('height').nullable()
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.unique(['listing_id', 'position'])
    })
  }

  async down() {
    this.schema.dropTable('listing_photos')
    this.schema.dropTable('listings')
  }
}
