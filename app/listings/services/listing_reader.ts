/*
 * Reads listings of the calling app. A listing and its processed photos come
 * back in one index-backed query (the GET path; no N+1 in lists either).
 */
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Caller } from '#core/auth/app_scoped'
import Listing, { type ListingState } from '#listings/models/listing'
import { photoUrl } from './photo_storage.js'

/** Ready photo keys in order, and how many photos the listing has in any state. */
const PHOTOS_SQL = `(select json_build_object(
    'keys', coalesce(json_agg(p.storage_key order by p.position) filter (where p.state = 'ready'), '[]'),
    'count', count(*))
  from listing_photos p where p.listing_id = listings.id) as photos`

export type ListingRecord = { listing: Listing; photoUrls: string[]; photoCount: number }

function toRecord(listing: Listing): ListingRecord {
  const photos = listing.$extras.photos as { keys: string[]; count: number }
  return { listing, photoUrls: photos.keys.map(photoUrl), photoCount: Number(photos.count) }
}

export type ListFilters = { operatorId?: number; state?: ListingState; page: number; perPage: number }

export default class ListingReader {
  /** The app's listing `externalId` of the agency (case-insensitive), or null. */
  async find(caller: Caller, agencyId: number, externalId: string, trx?: TransactionClientContract) {
    const query = Listing.forApp(caller)
      .where('listings.agency_id', agencyId)
      .whereRaw('lower(listings.external_id) = lower(?)', [externalId])
      .select('listings.*', db.raw(PHOTOS_SQL))
    if (trx) query.useTransaction(trx)
    const listing = await query.first()
    return listing ? toRecord(listing) : null
  }

  /** One page of the app's listings of the agency; archived ones only when asked for. */
  async list(caller: Caller, agencyId: number, filters: ListFilters) {
    const query = Listing.forApp(caller).where('listings.agency_id', agencyId)
    if (filters.state) query.where('listings.state', filters.state)
    else query.whereNot('listings.state', 'archived')
    if (filters.operatorId !== undefined) query.where('listings.operator_id', filters.operatorId)
    const [{ total }] = await query.clone().count('* as total').pojo<{ total: string }>()
    const rows = await query
      .select('listings.*', db.raw(PHOTOS_SQL))
      .orderBy('listings.id', 'asc')
      .offset((filters.page - 1) * filters.perPage)
      .limit(filters.perPage)
    return { total: Number(total), records: rows.map(toRecord) }
  }
}
