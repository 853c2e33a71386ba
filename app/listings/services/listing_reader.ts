/*
 * Reads listings of the calling app. A listing row carries its ready photos'
 * keys, so a GET is one index-backed query and a list needs no per-row query.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Caller } from '#core/auth/app_scoped'
import { poolQuery } from '#core/database/pool_query'
import Listing, { type ListingData, type ListingState } from '#listings/models/listing'
import { photoUrl } from './photo_storage.js'

/** Every stored column but the timestamps: attribute, column and how its value is read. */
const FIELDS = Array.from(Listing.$columnsDefinitions.entries())
  .filter(([attribute]) => attribute !== 'createdAt' && attribute !== 'updatedAt')
  .map(([attribute, column]) => ({ attribute, column: column.columnName, consume: column.consume }))

/** GET by {adminmail}/{externalid}: one row through index listings_app_admin_external. */
export const SHOW_SQL = `select ${FIELDS.map((field) => `listings.${field.column}`).join(', ')} from listings
  where listings.app_id = $1 and listings.admin_email = $2 and lower(listings.external_id) = lower($3) limit 1`

/** A row as a plain object, the way the model would read it (without building a model instance). */
function fromRow(row: Record<string, unknown>): ListingData {
  const data: Record<string, unknown> = {}
  for (const { attribute, column, consume } of FIELDS)
    data[attribute] = consume ? consume(row[column], attribute, undefined as any) : row[column]
  return data as ListingData
}

export type ListingRecord = { listing: ListingData; photoUrls: string[]; photoCount: number }

function toRecord(listing: ListingData): ListingRecord {
  return { listing, photoUrls: listing.photoKeys.map(photoUrl), photoCount: listing.photoCount }
}

export type ListFilters = {
  operatorId?: number
  state?: ListingState
  page: number
  perPage: number
}

export default class ListingReader {
  /**
   * The app's listing `externalId` of the agency (case-insensitive), or null.
   * `forUpdate` locks its row for the rest of `trx`: concurrent writers then
   * queue behind each other instead of losing the revision race.
   */
  async find(
    caller: Caller,
    agencyId: number,
    externalId: string,
    trx?: TransactionClientContract,
    forUpdate = false
  ) {
    const query = Listing.forApp(caller)
      .where('listings.agency_id', agencyId)
      .whereRaw('lower(listings.external_id) = lower(?)', [externalId])
    if (trx) query.useTransaction(trx)
    if (trx && forUpdate) query.forUpdate()
    const listing = await query.first()
    return listing ? toRecord(listing) : null
  }

  /**
   * The read path of GET: the app's listing by the agency's administrator
   * e-mail and ExternalId, in one query (no agency lookup: the app's own
   * listing exists only where the app was linked to the agency).
   */
  async findByAdminMail(caller: Caller, adminMail: string, externalId: string) {
    // The hot GET path: a prepared statement, the row mapped without a model instance.
    const values = [caller.id, adminMail.trim().toLowerCase(), externalId]
    const rows = await poolQuery(SHOW_SQL, values, { prepare: true })
    return rows.length ? toRecord(fromRow(rows[0])) : null
  }

  /** The record of a listing row read with `returning *` (a write answers without reading it again). */
  fromRow(row: Record<string, unknown>): ListingRecord {
    return toRecord(fromRow(row))
  }

  /** One page of the app's listings of the agency; archived ones only when asked for. */
  async list(caller: Caller, agencyId: number, filters: ListFilters) {
    const query = Listing.forApp(caller).where('listings.agency_id', agencyId)
    if (filters.state) query.where('listings.state', filters.state)
    else query.whereNot('listings.state', 'archived')
    if (filters.operatorId !== undefined) query.where('listings.operator_id', filters.operatorId)
    const [{ total }] = await query.clone().count('* as total').pojo<{ total: string }>()
    const rows = await query
      .orderBy('listings.id', 'asc')
      .offset((filters.page - 1) * filters.perPage)
      .limit(filters.perPage)
    return { total: Number(total), records: rows.map(toRecord) }
  }
}
