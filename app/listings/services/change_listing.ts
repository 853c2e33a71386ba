/*
 * Every change to an existing listing goes through here: PUT (edit), PATCH
 * (prices and optional state), suspender, activar and DELETE (archive). One
 * path means one state machine and one set of activation checks.
 *
 * Optimistic concurrency (docs/design.md §4): the revision the client saw (its
 * If-Match) is compared inside the UPDATE itself (`… where revision = ?`),
 * so of two writes carrying the same ETag exactly one wins and the other
 * gets `precondition`. Without If-Match a write that loses such a race is
 * re-applied on the fresh row.
 *
 * Every writer of a listing bumps its revision, so a change that needs no
 * lock (no activation, no count against the plan, no new responsible, no
 * photos, no event) first runs without a transaction: one read, then the
 * revision-guarded UPDATE, which commits only if nothing changed the row in
 * between. Otherwise — or when that UPDATE loses a race — it runs in a
 * transaction holding the row. Changes of one listing from this process run
 * one after another (`writers`), so a burst on one row does not turn into
 * lost races; and a change hands the row it wrote to the edit queued
 * behind it (`handedRows`), which then skips the read. That row is only a guess:
 * its revision guards the UPDATE, and a guess that fails in any way is
 * dropped for a fresh read.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { fail, ok, type Fail, type Ok } from '#core/result'
import { SerialByKey } from '#core/serial_by_key'
import { poolQuery } from '#core/database/pool_query'
import type { Caller } from '#core/auth/app_scoped'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import type { ListingState } from '#listings/models/listing'
import type { ListingEditInput } from '#listings/validators/listing'
import ApplyEdit, { type PlaceValues } from './apply_edit.js'
import ListingReader, { type ListingRecord } from './listing_reader.js'
import { installPhotos } from './photo_set.js'
import { transition } from './listing_rules.js'
import { expectedRevision } from './listing_etag.js'
import type { ListingFailure } from './listing_failures.js'
import ListingEvents, { type StateCause } from './listing_events.js'

export type Change =
  | { kind: 'edit'; input: ListingEditInput }
  | { kind: 'partial'; input: ListingEditInput }
  | { kind: 'state'; active: boolean }
  | { kind: 'archive' }

export type ChangeFailure = ListingFailure

export type ChangeRequest = {
  caller: Caller
  agency: AgencyView
  externalId: string
  /** The request's If-Match tags; undefined when none was sent. */
  ifMatch?: string[]
  change: Change
  /** Set when the app did not ask for the change: its app gets the state event (docs/design.md §14). */
  cause?: StateCause
}

type Changed = Ok<{ agency: AgencyView; record: ListingRecord }>
type Attempt =
  Changed | ChangeFailure | Fail<'retry'> | Fail<'busy'> | Fail<'resolve'> | Fail<'locks'>

const ATTEMPTS = 3

/** Changes of one listing (app, agency, ExternalId in any case) queue in this process. */
const writers = new SerialByKey()

/**
 * The listing an edit just wrote, for the edit of its key queued next
 * (`writers`). Exported for tests, which plant stale rows in it.
 */
export const handedRows = new Map<string, ListingRecord>()

/** The key of a listing's writers: app, agency, ExternalId in any case. */
export function writerKey(appId: number, agencyId: number, externalId: string) {
  return `${appId} ${agencyId} ${externalId.toLowerCase()}`
}

@inject()
export default class ChangeListing {
  constructor(
    private directory: AgencyDirectory,
    private applyEdit: ApplyEdit,
    private reader: ListingReader
  ) {}

  async execute(request: ChangeRequest): Promise<Changed | ChangeFailure> {
    const key = writerKey(request.caller.id, request.agency.id, request.externalId)
    // Only edits take a handed row: each of them ends in the revision-guarded
    // UPDATE, whereas a state change already in place answers from the row.
    const edit = request.change.kind === 'edit' || request.change.kind === 'partial'
    return writers.run(key, async () => {
      const handed = handedRows.get(key)
      handedRows.delete(key)
      const result = await this.#change(request, edit ? handed : undefined)
      if (result.ok && writers.waiting(key) > 0) handedRows.set(key, result.value.record)
      return result
    })
  }

  async #change(request: ChangeRequest, handed: ListingRecord | undefined) {
    // Locacion is resolved through the catalogue only when it differs from the
    // listing's (a stock sync sends the same place every time): an attempt asks
    // for it (`resolve`), and it is resolved outside the transaction.
    let location: PlaceValues | undefined
    let membersHeld = false
    // A change that writes an event commits it with the row: no optimistic attempt.
    let locking = request.cause !== undefined
    for (let attempt = 1; ; attempt++) {
      const guess = locking ? undefined : handed
      handed = undefined
      const result: Attempt = locking
        ? await db.transaction((trx) => this.#attempt(trx, request, location, membersHeld))
        : await this.#attempt(null, request, location, membersHeld, guess)
      // An answer drawn from a stale handed row would be wrong: try again on a fresh read.
      if (guess && !result.ok && result.reason !== 'locks' && result.reason !== 'resolve') {
        attempt--
        continue
      }
      if (
        !result.ok &&
        result.reason === 'resolve' &&
        location === undefined &&
        request.change.kind === 'edit'
      ) {
        location = await this.applyEdit.resolveLocation(request.change.input)
        attempt--
        continue
      }
      if (!locking && !result.ok && (result.reason === 'locks' || result.reason === 'retry')) {
        locking = true
        attempt--
        continue
      }
      if (!result.ok && result.reason === 'busy') membersHeld = true
      else if (result.ok || result.reason !== 'retry') return result as Changed | ChangeFailure
      if (attempt === ATTEMPTS) return fail('changed_concurrently')
    }
  }

  /** One try of the change; `trx` null: the optimistic attempt, on `handed` when given (see above). */
  async #attempt(
    trx: TransactionClientContract | null,
    request: ChangeRequest,
    location: PlaceValues | undefined,
    membersHeld: boolean,
    handed?: ListingRecord
  ): Promise<Attempt> {
    const { agency } = request
    // After a `busy` attempt: wait for the agency's desasociar before taking the listing row.
    if (membersHeld && trx) await this.directory.holdMembers(agency.id, trx)
    const current = trx
      ? await this.reader.find(request.caller, agency.id, request.externalId, trx, true)
      : (handed ??
        (await this.reader.findByAdminMail(request.caller, agency.adminMail, request.externalId)))
    if (!current) return fail('not_found')
    const { listing } = current

    const expected = expectedRevision(request.ifMatch, listing.id)
    if (expected !== undefined && expected !== listing.revision) return fail('precondition')

    const target = targetState(request.change, listing.state)
    let values: Record<string, unknown>
    let photos: string[] | undefined
    if (request.change.kind === 'archive' || request.change.kind === 'state') {
      const moved = transition(listing.state, target)
      if (!moved.ok) return moved
      if (target === listing.state) return ok({ agency, record: current })
    }
    if (request.change.kind === 'archive') {
      values = { state: 'archived' }
    } else {
      const input = request.change.kind === 'state' ? {} : request.change.input
      if (
        request.change.kind === 'edit' &&
        location === undefined &&
        input.location !== undefined
      ) {
        const kept = this.applyEdit.keptLocation(input.location, listing)
        if (!kept) return fail('resolve')
        location = kept
      }
      const applied = await this.applyEdit.execute(trx, {
        agency,
        listing,
        photoCount: current.photoCount,
        input,
        target,
        versionKnown: listing.versionId !== null,
        location,
        membersHeld,
      })
      if (!applied.ok) return applied
      values = applied.value.values
      photos = applied.value.photos
      if (photos && !trx) return fail('locks')
    }

    // `returning *`: the answer is the updated row, no second read (unless photos change it again).
    const columns = Object.keys(values)
    const updated = await poolQuery(
      updateSql(columns),
      [listing.id, listing.revision, ...columns.map((column) => values[column])],
      { prepare: true, client: trx ?? undefined }
    )
    if (updated.length === 0) return fail(expected !== undefined ? 'precondition' : 'retry')
    const state = updated[0].state as ListingState
    if (request.cause && trx && state !== listing.state) {
      await new ListingEvents().stateChanged(trx, listing, state, request.cause)
    }

    if (!photos || !trx) return ok({ agency, record: this.reader.fromRow(updated[0]) })
    await installPhotos(trx, listing, photos)
    const record = await this.reader.find(request.caller, agency.id, request.externalId, trx)
    return ok({ agency, record: record! })
  }
}

/**
 * The revision-guarded UPDATE setting `columns` ($3…): one text per set of
 * columns a change writes, so each is a prepared statement of its own.
 */
function updateSql(columns: string[]) {
  const assignments = columns.map((column, index) => `"${column}" = $${index + 3}`)
  return `update listings set ${assignments.join(', ')}, revision = revision + 1, updated_at = now()
    where id = $1 and revision = $2 returning *`
}

/** The state a change asks for: PUT defaults Activa to true; PATCH's null keeps the state. */
function targetState(change: Change, current: ListingState): ListingState {
  switch (change.kind) {
    case 'archive':
      return 'archived'
    case 'state':
      return change.active ? 'active' : 'suspended'
    case 'edit':
      return change.input.active === false ? 'suspended' : 'active'
    case 'partial':
      return change.input.active === true
        ? 'active'
        : change.input.active === false
          ? 'suspended'
          : current
  }
}
