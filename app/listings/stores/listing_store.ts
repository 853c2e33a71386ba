/*
 * The `listings` table: every statement of the listings module on it.
 * Style (docs/architecture.md): the Listing model for plain reads, the query
 * builder for filters and set-based writes, written-out SQL (`poolQuery`,
 * prepared) only for the statements the bench showed pay — each names its figure.
 * Methods take the caller's transaction last; without one they run on the pool.
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'
import { poolQuery } from '#core/database/pool_query'
import Listing, {
  type Exposure,
  type ListingData,
  type ListingState,
} from '#listings/models/listing'

export type { ListingData }

/** Column values to write, by snake_case column name (what ApplyEdit produces). */
export type ListingValues = Record<string, unknown>

/** Active listings per exposure level. */
export type ExposureCounts = Record<Exposure, number>

/** The listings a suspension takes: of an agency, of a person, or an agency's most recently updated. */
export type ActiveScope =
  { agencyId: number } | { operatorId: number } | { agencyId: number; newest: number }

/** A new operator for a listing (desasociar): its id, e-mail and phones. */
export type OperatorTarget = { id: number; email: string; phones: string[] }

export type ListFilters = {
  operatorId?: number
  state?: ListingState
  page: number
  perPage: number
}

/** Advisory-lock namespace of this module (its migration range): one activation per agency at a time. */
const LOCK_NAMESPACE = 300

/** Every stored column but the timestamps: attribute, column and how its value is read. */
const FIELDS = Array.from(Listing.$columnsDefinitions.entries())
  .filter(([attribute]) => attribute !== 'createdAt' && attribute !== 'updatedAt')
  .map(([attribute, column]) => ({ attribute, column: column.columnName, consume: column.consume }))

/** GET by {adminmail}/{externalid}: one row through index listings_app_admin_external. */
export const SHOW_SQL = `select ${FIELDS.map((field) => `listings.${field.column}`).join(', ')} from listings
  where listings.app_id = $1 and listings.admin_email = $2 and lower(listings.external_id) = lower($3) limit 1`

/**
 * The revision-guarded UPDATE setting `columns` ($3…): one text per set of
 * columns a change writes, so each is a prepared statement of its own.
 */
function updateSql(columns: string[]) {
  const assignments = columns.map((column, index) => `"${column}" = $${index + 3}`)
  return `update listings set ${assignments.join(', ')}, revision = revision + 1, updated_at = now()
    where id = $1 and revision = $2 returning *`
}

/** A row as a plain object, the way the model would read it (without building a model instance). */
export function listingOfRow(row: Record<string, unknown>): ListingData {
  const data: Record<string, unknown> = {}
  for (const { attribute, column, consume } of FIELDS)
    data[attribute] = consume ? consume(row[column], attribute, undefined as any) : row[column]
  return data as ListingData
}

export default class ListingStore {
  /**
   * The app's listing `externalId` of the agency (case-insensitive), or null.
   * `forUpdate` (with `tx`) locks its row for the rest of `tx`: concurrent
   * writers then queue behind each other instead of losing the revision race.
   */
  async find(
    appId: number,
    agencyId: number,
    externalId: string,
    options: { forUpdate?: boolean } = {},
    tx?: Tx
  ): Promise<ListingData | null> {
    const query = Listing.forApp({ id: appId })
      .where('listings.agency_id', agencyId)
      .whereRaw('lower(listings.external_id) = lower(?)', [externalId])
    if (tx) query.useTransaction(tx)
    if (tx && options.forUpdate) query.forUpdate()
    return query.first()
  }

  /**
   * The read path of GET (and of an edit's optimistic attempt): the app's
   * listing by the agency's administrator e-mail and ExternalId.
   */
  async findByAdminMail(
    appId: number,
    adminMail: string,
    externalId: string
  ): Promise<ListingData | null> {
    // Written out and prepared, mapped without a model: a GET is this one statement
    // (docs/decisions/performance.md, Performance: "GET path", "Hot statements are prepared":
    // PostgreSQL's CPU per PUT 1.29 → 0.70 ms with the UPDATE below).
    const values = [appId, adminMail.trim().toLowerCase(), externalId]
    const rows = await poolQuery(SHOW_SQL, values, { prepare: true })
    return rows.length ? listingOfRow(rows[0]) : null
  }

  /** Any app's listing of the agency administered by `adminMail` (ExternalId is unique per agency). */
  async findOfAgency(adminMail: string, externalId: string, tx?: Tx): Promise<ListingData | null> {
    return Listing.query({ client: tx })
      .where('admin_email', adminMail.trim().toLowerCase())
      .whereRaw('lower(external_id) = lower(?)', [externalId])
      .first()
  }

  /** The agency's listing with this ExternalId, any app, any state. */
  async findInAgency(agencyId: number, externalId: string, tx?: Tx): Promise<ListingData | null> {
    return Listing.query({ client: tx })
      .where('agency_id', agencyId)
      .whereRaw('lower(external_id) = lower(?)', [externalId])
      .first()
  }

  /**
   * The app's listings of the agency among `externalIds` (any case), keyed by
   * lower-case ExternalId: a stock sync reads a batch of rows in one statement.
   */
  async findMany(
    appId: number,
    agencyId: number,
    externalIds: string[]
  ): Promise<Map<string, ListingData>> {
    if (externalIds.length === 0) return new Map()
    const rows = await Listing.forApp({ id: appId })
      .where('listings.agency_id', agencyId)
      .whereRaw('lower(listings.external_id) = any(?::text[])', [
        externalIds.map((externalId) => externalId.toLowerCase()),
      ])
    return new Map(rows.map((listing) => [listing.externalId.toLowerCase(), listing]))
  }

  async findById(id: number, tx?: Tx): Promise<ListingData | null> {
    return Listing.query({ client: tx }).where('id', id).first()
  }

  /** The listing behind `/autos/{slug}` with its ready photos' keys, in order. */
  async findBySlug(
    slug: string,
    tx?: Tx
  ): Promise<{ listing: ListingData; photos: { image: string; thumbnail: string }[] } | null> {
    const listing = await Listing.query({ client: tx })
      .where('slug', slug)
      .select(
        'listings.*',
        db.raw(`(select coalesce(json_agg(json_build_object('image', p.storage_key, 'thumbnail', p.thumbnail_key)
          order by p.position), '[]') from listing_photos p
          where p.listing_id = listings.id and p.state = 'ready') as photos`)
      )
      .first()
    return listing ? { listing, photos: listing.$extras.photos } : null
  }

  /** One page of the app's listings of the agency (archived ones only when asked for), and the total. */
  async list(appId: number, agencyId: number, filters: ListFilters) {
    const query = Listing.forApp({ id: appId }).where('listings.agency_id', agencyId)
    if (filters.state) query.where('listings.state', filters.state)
    else query.whereNot('listings.state', 'archived')
    if (filters.operatorId !== undefined) query.where('listings.operator_id', filters.operatorId)
    const [{ total }] = await query.clone().count('* as total').pojo<{ total: string }>()
    const rows: ListingData[] = await query
      .orderBy('listings.id', 'asc')
      .offset((filters.page - 1) * filters.perPage)
      .limit(filters.perPage)
    return { total: Number(total), rows }
  }

  /** Whether the agency has a listing with this ExternalId (any case, any app). */
  async externalIdTaken(agencyId: number, externalId: string, tx?: Tx): Promise<boolean> {
    const taken = await (tx ?? db.connection())
      .from('listings')
      .where('agency_id', agencyId)
      .whereRaw('lower(external_id) = lower(?)', [externalId])
      .first()
    return Boolean(taken)
  }

  /** Inserts a listing; answers its id. */
  /** Rows in one statement (a stock sync's new listings); their ids in order. */
  async insertMany(rows: ListingValues[], tx: Tx): Promise<number[]> {
    if (rows.length === 0) return []
    const inserted = await tx.table('listings').multiInsert(rows).returning('id')
    return inserted.map((row: { id: number }) => row.id)
  }

  /** Which of `externalIds` (lower case) any app's listing of the agency already has. */
  async takenIn(agencyId: number, externalIds: string[], tx: Tx): Promise<Set<string>> {
    const { rows } = await tx.rawQuery(
      'select lower(external_id) as id from listings where agency_id = ? and lower(external_id) = any(?::text[])',
      [agencyId, externalIds.map((externalId) => externalId.toLowerCase())]
    )
    return new Set(rows.map((row: { id: string }) => row.id))
  }

  async insert(values: ListingValues, tx?: Tx): Promise<number> {
    const [{ id }] = await (tx ?? db.connection()).table('listings').insert(values).returning('id')
    return id
  }

  /**
   * Writes `values` if the listing still has `revision`, bumping it; answers
   * the updated row, or null when the revision moved on (or the row is gone).
   */
  async update(
    id: number,
    revision: number,
    values: ListingValues,
    tx?: Tx
  ): Promise<ListingData | null> {
    // Written out, prepared (one text per set of columns), `returning *` instead of a second
    // read: a stock-sync PUT is 3 statements instead of 6 (docs/decisions/performance.md, Performance:
    // "Fewer statements per write", "A listing change that needs no lock takes none";
    // PostgreSQL's CPU per PUT 1.29 → 0.70 ms prepared).
    const columns = Object.keys(values)
    const rows = await poolQuery(
      updateSql(columns),
      [id, revision, ...columns.map((column) => values[column])],
      { prepare: true, client: tx }
    )
    return rows.length ? listingOfRow(rows[0]) : null
  }

  /**
   * Until `tx` ends, no other activation (or plan change) of the agency counts
   * its active listings: whoever counts next sees this transaction's result.
   */
  async holdActivations(agencyId: number, tx: Tx) {
    // A function call, not a query: nothing for the query builder to build.
    await tx.rawQuery('select pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, agencyId])
  }

  /** The agency's active listings (all apps) per exposure level, leaving out `except`. */
  async activeByExposure(
    agencyId: number,
    options: { except?: number } = {},
    tx?: Tx
  ): Promise<ExposureCounts> {
    const rows = await (tx ?? db.connection())
      .from('listings')
      .where('agency_id', agencyId)
      .where('state', 'active')
      .if(options.except !== undefined, (query) => query.whereNot('id', options.except!))
      .groupBy('exposure')
      .select('exposure')
      .count('* as total')
    const used: ExposureCounts = { high: 0, medium: 0, low: 0 }
    for (const row of rows) used[row.exposure as Exposure] = Number(row.total)
    return used
  }

  async countActive(agencyId: number, tx?: Tx): Promise<number> {
    const [{ count }] = await (tx ?? db.connection())
      .from('listings')
      .where('agency_id', agencyId)
      .where('state', 'active')
      .count('* as count')
    return Number(count)
  }

  /** The active listings of `scope`, locked for the rest of `tx`. */
  async lockActive(scope: ActiveScope, tx: Tx): Promise<ListingData[]> {
    const query = Listing.query({ client: tx }).where('state', 'active').forUpdate()
    if ('operatorId' in scope) query.where('operator_id', scope.operatorId)
    else query.where('agency_id', scope.agencyId)
    if ('newest' in scope) {
      query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(scope.newest)
    }
    return query
  }

  /** Sets the listings `suspended`, bumping their revisions. */
  async suspend(ids: number[], tx: Tx) {
    await tx
      .from('listings')
      .whereIn('id', ids)
      .update({ state: 'suspended', revision: db.raw('revision + 1'), updated_at: new Date() })
  }

  /** Moves the agency's listings of one operator to `target` (the phone follows); answers how many. */
  async reassignOperator(
    agencyId: number,
    fromOperatorId: number,
    target: OperatorTarget,
    tx: Tx
  ): Promise<number> {
    const moved = await tx
      .from('listings')
      .where('agency_id', agencyId)
      .where('operator_id', fromOperatorId)
      .update({
        operator_id: target.id,
        operator_email: target.email,
        // Keep the listing's phone when the new responsible has it too.
        phone: target.phones.length
          ? db.raw('case when phone = any(?) then phone else ? end', [
              target.phones,
              target.phones[0],
            ])
          : null,
        revision: db.raw('revision + 1'),
        updated_at: new Date(),
      })
    return Number(moved)
  }

  /** Locks the listing row for the rest of `tx` (a no-op wait when `tx` already holds it). */
  async lock(listingId: number, tx: Tx) {
    await tx.from('listings').where('id', listingId).select('id').forUpdate()
  }

  /**
   * Recomputes `photo_keys` (ready photos, in order) and `photo_count` (every
   * photo) from the photo rows; `bumpRevision` when a photo settled. Call with
   * the listing locked by `tx` (`lock`), never in the locking statement
   * (services/photo_set.ts).
   */
  async refreshPhotoCache(listingId: number, options: { bumpRevision?: boolean }, tx: Tx) {
    await tx
      .from('listings')
      .where('id', listingId)
      .update({
        photo_keys:
          tx.raw(`(select coalesce(json_agg(p.storage_key order by p.position) filter (where p.state = 'ready'), '[]')
        from listing_photos p where p.listing_id = listings.id)`),
        photo_count: tx.raw(
          '(select count(*) from listing_photos p where p.listing_id = listings.id)'
        ),
        ...(options.bumpRevision
          ? { revision: tx.raw('revision + 1'), updated_at: new Date() }
          : {}),
      })
  }
}
