import db from '@adonisjs/lucid/services/db'

/** The catalogue's revision, bumped by every import; catalogue ETags derive from it. */
export default class CatalogRevision {
  async current(): Promise<string> {
    const row = await db.from('catalog_state').where('id', 1).select('revision').first()
    return String(row?.revision ?? 0)
  }
}
