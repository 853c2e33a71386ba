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
 * one after another (ListingWriters), so a burst on one row does not turn into
 * lost races; and a change hands the row it wrote to the edit queued
 * behind it (ListingWriters), which then skips the read. That row is only a guess:
 * its revision guards the UPDATE, and a guess that fails in any way is
 * dropped for a fresh read.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import UnitOfWork from '#core/database/unit_of_work'
import { fail, ok, type Ok } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import type { ListingState } from '#listings/models/listing'
import type { ListingEditInput } from '#listings/validators/listing'
import ListingStore from '#listings/stores/listing_store'
import ApplyEdit, { type EditContext, type EditResult, type PlaceValues } from './apply_edit.js'
import { toRecord, type ListingRecord } from './listing_record.js'
import ListingWriters from './listing_writers.js'
import PhotoSet from './photo_set.js'
import { changesNothing, sameList, transition } from './listing_rules.js'
import { expectedRevision, listingEtag } from './listing_etag.js'
import { invalid, type ListingFailure, type ListingNotice } from './listing_failures.js'
import { fixedDifferences, otherEntries } from './fixed_members.js'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import ListingEvents, { type StateCause } from './listing_events.js'
import { isSignal, signal, type Signal } from './write_signals.js'
import type { EditReads } from './edit_reads.js'

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
  /**
   * The caller's transaction (a stock sync row, which records its result with
   * the write): every attempt runs in a savepoint of it, holding the row.
   */
  within?: Tx
}

/** `notices`: what the change did not do as asked (docs/design.md §24). */
type Changed = Ok<{ agency: AgencyView; record: ListingRecord; notices: ListingNotice[] }>
/** What one try of a change ends in: an answer, or a signal to the loop. */
type Tried = Changed | ChangeFailure | Signal

/**
 * One try of a change, and what it starts from.
 * - `locked`: in `tx`, holding the listing row;
 * - `optimistic`: without a transaction, ending in the revision-guarded UPDATE;
 *   `handed` is the row the write before it handed on (a guess, see above);
 * - `probe`: optimistic, on the caller's own fresh read (`handed`), stopping
 *   before any write (`would_write`); `reads` are a stock sync batch's.
 */
type Attempt = (
  | { mode: 'locked'; tx: Tx }
  | { mode: 'optimistic'; handed?: ListingRecord }
  | { mode: 'probe'; handed: ListingRecord; reads?: EditReads }
) & {
  /** Locacion resolved beforehand, or the listing's own kept (undefined: not yet). */
  location?: PlaceValues
  /** After `members_busy`: the agency's desasociar is waited for before the listing row. */
  membersHeld: boolean
}

/** Where a change stands between tries (see #change). */
type Progress = {
  location?: PlaceValues
  membersHeld: boolean
  locking: boolean
  /** Tries that lost while holding the row, or met a desasociar. */
  counted: number
}

const ATTEMPTS = 3

@inject()
export default class ChangeListing {
  constructor(
    private directory: AgencyDirectory,
    private applyEdit: ApplyEdit,
    private listings: ListingStore,
    private photoSet: PhotoSet,
    private events: ListingEvents,
    private writers: ListingWriters,
    private unitOfWork: UnitOfWork,
    private vehicles: VehicleResolver
  ) {}

  execute(request: ChangeRequest): Promise<Changed | ChangeFailure> {
    const key = this.writers.key(request.caller.id, request.agency.id, request.externalId)
    // Only edits take a handed row: each of them ends in the revision-guarded
    // UPDATE, whereas a state change already in place answers from the row.
    const edit = request.change.kind === 'edit' || request.change.kind === 'partial'
    return this.writers.run(key, (handed) => this.#change(request, edit ? handed : undefined))
  }

  /**
   * Whether the edit would write nothing to `current` (a row the caller just
   * read): one attempt without a transaction that stops before any write. A
   * stock sync answers `SinCambios` from it for rows that did not change,
   * with no transaction, lock or write (docs/design.md §15), and the notices
   * it carries. Null means "run it": a change, a failure, or something only a
   * locked attempt can tell.
   */
  async unchanged(
    request: ChangeRequest,
    current: ListingRecord,
    reads?: EditReads
  ): Promise<{ notices: ListingNotice[] } | null> {
    const attempt: Attempt = { mode: 'probe', handed: current, reads, membersHeld: false }
    const result = await this.#attempt(request, attempt)
    return result.ok ? { notices: result.value.notices } : null
  }

  /**
   * Tries the change until it answers. Locacion is resolved through the
   * catalogue only when it differs from the listing's (a stock sync sends the
   * same place every time): an attempt asks for it (`resolve_location`), and it
   * is resolved outside the transaction. A change that writes an event commits
   * it with the row, and one inside the caller's transaction holds the row: no
   * optimistic attempt for either.
   */
  async #change(
    request: ChangeRequest,
    handed: ListingRecord | undefined
  ): Promise<Changed | ChangeFailure> {
    const progress: Progress = {
      membersHeld: false,
      locking: request.cause !== undefined || request.within !== undefined,
      counted: 0,
    }
    for (;;) {
      const guess = progress.locking ? undefined : handed
      handed = undefined
      const { location, membersHeld } = progress
      const result = progress.locking
        ? await this.unitOfWork.run(
            (tx) => this.#attempt(request, { mode: 'locked', tx, location, membersHeld }),
            { client: request.within }
          )
        : await this.#attempt(request, { mode: 'optimistic', handed: guess, location, membersHeld })
      if (!isSignal(result)) {
        // An answer drawn from a stale handed row would be wrong: try again on a fresh read.
        if (guess && !result.ok) continue
        return result
      }
      if (!(await this.#onSignal(request, result, progress, guess !== undefined))) continue
      if (++progress.counted === ATTEMPTS) return fail('changed_concurrently')
    }
  }

  /**
   * Moves `progress` on after a signal. True when the try counts against
   * ATTEMPTS: only tries that lost while holding the row (or met a desasociar)
   * do; every other signal moves the change on one step (fresh read, resolved
   * place, lock), once each.
   */
  async #onSignal(request: ChangeRequest, result: Signal, progress: Progress, guessed: boolean) {
    switch (result.signal) {
      case 'resolve_location':
        if (request.change.kind !== 'edit') throw new Error('Only an edit names a place')
        progress.location = await this.applyEdit.resolveLocation(request.change.input)
        return false
      case 'needs_lock':
        progress.locking = true
        return false
      case 'lost_race':
        // A stale guess reads afresh; a lost write without a lock retries holding the row.
        if (guessed) return false
        if (!progress.locking) {
          progress.locking = true
          return false
        }
        return true
      case 'members_busy':
        progress.membersHeld = true
        return true
      case 'would_write':
        throw new Error('Only a probe stops before its write')
    }
  }

  /** One try of the change (see Attempt). */
  async #attempt(request: ChangeRequest, attempt: Attempt): Promise<Tried> {
    const current = await this.#read(request, attempt)
    if (!current) return fail('not_found')
    const { listing } = current
    const expected = expectedRevision(request.ifMatch, listing.id)
    if (expected !== undefined && expected !== listing.revision) {
      return fail('precondition', { details: { etag: listingEtag(listing) } })
    }
    const planned = await this.#plan(request, attempt, current)
    if (!('values' in planned)) return planned
    if (attempt.mode === 'probe') return signal('would_write')
    return this.#write(request, attempt, current, planned)
  }

  /** The listing the try starts from: the locked row, the handed one, or a fresh read. */
  async #read(request: ChangeRequest, attempt: Attempt): Promise<ListingRecord | null> {
    const { agency, caller, externalId } = request
    if (attempt.mode === 'locked') {
      // After `members_busy`: wait for the agency's desasociar before taking the listing row.
      if (attempt.membersHeld) await this.directory.holdMembers(agency.id, attempt.tx)
      const found = await this.listings.find(
        caller.id,
        agency.id,
        externalId,
        { forUpdate: true },
        attempt.tx
      )
      return found ? toRecord(found) : null
    }
    if (attempt.handed) return attempt.handed
    const found = await this.listings.findByAdminMail(caller.id, agency.adminMail, externalId)
    return found ? toRecord(found) : null
  }

  /**
   * What the change writes to `current`: its values (and photos, notices), or
   * the answer without a write (a state already in place, nothing that would
   * change, a failure), or a signal.
   */
  async #plan(
    request: ChangeRequest,
    attempt: Attempt,
    current: ListingRecord
  ): Promise<Tried | EditResult> {
    const { change, agency } = request
    const { listing } = current
    const target = targetState(change, listing.state)
    if (change.kind === 'archive' || change.kind === 'state') {
      const moved = transition(listing.state, target)
      if (!moved.ok) return moved
      if (target === listing.state) return ok({ agency, record: current, notices: [] })
      if (change.kind === 'archive') return { values: { state: 'archived' }, notices: [] }
    }
    const applied = await this.#edit(request, attempt, current, target)
    if (!('values' in applied)) return applied
    const tx = attempt.mode === 'locked' ? attempt.tx : undefined
    if (applied.photos && !tx) return signal('needs_lock')
    // Nothing would change: no UPDATE, same revision and ETag, no event (docs/design.md §19).
    // A handed row is only a guess, so that answer comes from a fresh read; a probe's row is
    // the caller's own fresh read.
    if (!applied.photos && changesNothing(applied.values, listing)) {
      return attempt.mode === 'optimistic' && attempt.handed
        ? signal('lost_race')
        : ok({ agency, record: current, notices: applied.notices })
    }
    return applied
  }

  /** The edit's values by ApplyEdit's rules, after the fixed members and the place. */
  async #edit(
    request: ChangeRequest,
    attempt: Attempt,
    current: ListingRecord,
    target: ListingState
  ): Promise<Tried | EditResult> {
    const { change, agency } = request
    const { listing } = current
    const input = change.kind === 'edit' || change.kind === 'partial' ? change.input : {}
    let location = attempt.location
    if (change.kind === 'edit') {
      const fixed = await this.#fixed(input, listing)
      if (fixed) return fixed
      if (location === undefined && input.location !== undefined) {
        const kept = this.applyEdit.keptLocation(input.location, listing)
        if (!kept) return signal('resolve_location')
        location = kept
      }
    }
    const tx = attempt.mode === 'locked' ? attempt.tx : undefined
    const context: EditContext = {
      agency,
      listing,
      photoCount: current.photoCount,
      shownPhotos: current.photoUrls,
      photoSources: await this.#photoSources(input, current, tx),
      input,
      target,
      versionKnown: listing.versionId !== null,
      location,
      membersHeld: attempt.membersHeld,
      reads: attempt.mode === 'probe' ? attempt.reads : undefined,
    }
    const applied = tx
      ? await this.applyEdit.execute(tx, context)
      : await this.applyEdit.withoutLock(context)
    return applied.ok ? applied.value : applied
  }

  /**
   * The revision-guarded UPDATE; the answer is the updated row, no second read
   * (unless photos change it again). Locked, it also writes the state event of
   * a change the app did not ask for, and installs the photos.
   */
  async #write(
    request: ChangeRequest,
    attempt: Attempt,
    current: ListingRecord,
    planned: EditResult
  ): Promise<Tried> {
    const { agency, caller, externalId } = request
    const { listing } = current
    const { values, photos, notices } = planned
    const tx = attempt.mode === 'locked' ? attempt.tx : undefined
    const updated = await this.listings.update(listing.id, listing.revision, values, tx)
    // Changed since it was read: the next try reads it again and, with If-Match, answers the 412
    // that names the current ETag.
    if (!updated) return signal('lost_race')
    if (request.cause && tx && updated.state !== listing.state) {
      await this.events.stateChanged(listing, updated.state, request.cause, tx)
    }
    if (!photos || !tx) return ok({ agency, record: toRecord(updated), notices })
    await this.photoSet.install(listing, photos, tx)
    const record = await this.listings.find(caller.id, agency.id, externalId, {}, tx)
    return ok({ agency, record: toRecord(record!), notices })
  }

  /**
   * The fixed members the edit sends with other values (docs/design.md §24).
   * The catalogue is asked only about a name whose text differs from the
   * listing's: a GET → PUT, or a sync row as the export writes it, asks nothing.
   */
  async #fixed(input: ListingEditInput, listing: ListingRecord['listing']) {
    const { changed, spelled } = fixedDifferences(input, listing)
    if (spelled.length > 0)
      changed.push(...(await otherEntries(this.vehicles, input, listing, spelled)))
    return changed.length > 0
      ? invalid(changed.map((field) => ({ field, issue: 'fixed' as const })))
      : null
  }

  /**
   * The listing's photo URLs as sent, read only when the spec's count rule
   * would ignore `Fotos` (as long as the listing's list, not the one GET
   * shows): a list equal to them is no change, and needs no Aviso.
   */
  async #photoSources(input: ListingEditInput, current: ListingRecord, tx: Tx | undefined) {
    const sent = input.photos
    if (!Array.isArray(sent) || sent.length !== current.photoCount) return undefined
    if (sameList(sent, current.photoUrls)) return undefined
    return this.photoSet.sources(current.listing.id, tx)
  }
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
