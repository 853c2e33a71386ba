/*
 * Works through a stock sync (docs/design.md §15), batch after batch, while it
 * holds the agency's turn (SyncStore.claim). Each row is the full desired
 * state of one listing, judged by the rules of a single request:
 * - a new ExternalId is created as POST creates it (CreateListing);
 * - an existing one is edited as PUT edits it (ChangeListing). A row that
 *   would change nothing is found by a probe without a transaction and gets
 *   `unchanged` with no write at all (same revision and ETag, no job);
 * - archives (listings a full sync leaves out, or the Bajas) go first, so the
 *   places they free are there for the rows that follow.
 * A row that writes does it in its own transaction, which also records its
 * result: a worker that dies resumes at the first row without one, and every
 * row gets exactly one. Rows that write nothing are recorded per batch.
 *
 * A simulation runs every row the same way inside one transaction that is
 * rolled back (later rows see what earlier ones would have done: places taken
 * and freed), then records the results it computed.
 *
 * A sync judges itself again as it goes (docs/design.md §25): a full sync's
 * archive list, built when it starts, must pass the drop guard (else it ends
 * failed having written nothing; a simulation only says a real run would need
 * ConfirmarBajas); before each batch the app must still be enabled with a live
 * token; and a sync started MAX_STARTS times at the same row without getting
 * further (its worker killed there each time: no catch runs) is given up.
 */
import { inject } from '@adonisjs/core'
import { errors as vineErrors } from '@vinejs/vine'
import UnitOfWork, { type Tx } from '#core/database/unit_of_work'
import { fail } from '#core/result'
import BodyMembers from '#core/services/body_members'
import { settings } from '#core/settings'
import JobRunner from '#core/jobs/runner'
import AppEvents from '#apps/services/app_events'
import AppStanding from '#apps/services/app_standing'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import { STOCK_SYNC } from '#listings/queues'
import ListingStore from '#listings/stores/listing_store'
import SyncStore, {
  type PendingRow,
  type RowRejection,
  type RowResult,
  type SyncData,
  type SyncFailure,
} from '#listings/stores/sync_store'
import {
  listingCreateValidator,
  toCreateInput,
  type ListingCreateInput,
} from '#listings/validators/listing'
import logger from '@adonisjs/core/services/logger'
import { isDatabaseUnavailable } from '#core/database/errors'
import { syncFinishedEvent } from '#listings/transformers/sync_transformer'
import CreateListing from './create_listing.js'
import ChangeListing, { type ChangeRequest } from './change_listing.js'
import ApplyEdit from './apply_edit.js'
import { toRecord } from './listing_record.js'
import { archivesNeedConfirmation } from './start_sync.js'

/** Rows read and judged at a time. */
export const BATCH = 100
/** How long a worker holds an agency's turn without renewing it (once per batch): SYNC_LEASE_SECONDS, 60 s. */
const leaseSeconds = () => settings.syncLeaseSeconds
/** Finished syncs are listed, then deleted, after this many days. */
export const KEEP_DAYS = 30
/** Starts at one row that did not get further before the sync is given up (the next start fails it). */
export const MAX_STARTS = 3

/** The operation whose body a row is: its members are the ones a row may hold. */
export const ROW_OPERATION = 'POST /v3/publicaciones/{adminmail}'

/** SQLSTATEs of a fault that passes: a deadlock, a serialization failure, a lock or statement timeout. */
const PASSING_STATES = new Set(['40001', '40P01', '55P03', '57014'])

/** A fault the job's retry gets past, as opposed to a row's own failure. */
function passing(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code
  return isDatabaseUnavailable(error) || (typeof code === 'string' && PASSING_STATES.has(code))
}

/**
 * A row's result, or what gives it: a write of its own (recorded in that
 * write's transaction), or a creation done with the batch's others.
 */
type Judged = RowResult & {
  writes?: (tx: Tx) => Promise<RowResult>
  creates?: ListingCreateInput
}

export type RunOutcome = 'finished' | 'waiting' | 'gone'

/** How a run of batches ended: every row done, the lease lost, or stopped for a reason. */
type RunEnd = 'done' | 'lost' | SyncFailure

@inject()
export default class RunSync {
  constructor(
    private syncs: SyncStore,
    private listings: ListingStore,
    private directory: AgencyDirectory,
    private creator: CreateListing,
    private changer: ChangeListing,
    private applyEdit: ApplyEdit,
    private unitOfWork: UnitOfWork,
    private appEvents: AppEvents,
    private runner: JobRunner,
    private standing: AppStanding,
    private bodyMembers: BodyMembers
  ) {}

  /** `waiting`: another sync of the agency holds its turn; `gone`: already finished. */
  async execute(syncId: number): Promise<RunOutcome> {
    const sync = await this.syncs.claim(syncId, leaseSeconds())
    if (!sync) {
      const found = await this.syncs.findById(syncId)
      return found && (found.state === 'pending' || found.state === 'running') ? 'waiting' : 'gone'
    }
    if ((sync.starts ?? 1) > MAX_STARTS) {
      logger.error({ sync: sync.id, starts: sync.starts }, 'stock sync given up: it kept failing')
      return this.#fail(sync, { reason: 'kept_failing', starts: MAX_STARTS })
    }
    const stopped = (await this.#appStops(sync)) ?? (await this.#listArchives(sync))
    if (stopped) return this.#fail(sync, stopped)
    const agency = await this.directory.forApp(sync.appId, sync.adminEmail)
    const end = sync.simulated ? await this.#simulate(sync, agency) : await this.#run(sync, agency)
    if (end === 'lost') return 'waiting'
    if (end !== 'done') return this.#fail(sync, end)

    await this.unitOfWork.run(async (tx) => {
      const finished = await this.syncs.finish(sync.id, 'done', tx)
      // A simulation writes nothing but itself and its results, no event either: the app reads it.
      if (finished && agency && !sync.simulated) {
        await this.appEvents.emit(
          sync.appId,
          'publicaciones',
          syncFinishedEvent(agency, finished),
          tx
        )
      }
    })
    await this.#next(sync)
    return 'finished'
  }

  /** Marks the sync failed (its job gave up); the agency's next sync may run. */
  async giveUp(syncId: number) {
    const failed = await this.syncs.finish(syncId, 'failed', undefined, {
      reason: 'kept_failing',
      starts: MAX_STARTS,
    })
    if (failed) await this.#next(failed)
  }

  /** Ends the sync failed for `failure`; the agency's next sync may run. */
  async #fail(sync: SyncData, failure: SyncFailure): Promise<RunOutcome> {
    const failed = await this.syncs.finish(sync.id, 'failed', undefined, failure)
    await this.#next(failed ?? sync)
    return 'finished'
  }

  /** Why the app's work must stop (disabled, no live token), or null. */
  async #appStops(sync: SyncData): Promise<SyncFailure | null> {
    const standing = await this.standing.of(sync.appId)
    return standing === 'active' ? null : { reason: 'app_unavailable', standing }
  }

  /**
   * A full sync's archives, listed when it starts, and the drop guard on that
   * list: broken without ConfirmarBajas, nothing is listed (the transaction is
   * rolled back) and the refusal comes back; a simulation instead says a real
   * run would need the confirmation, and goes on.
   */
  async #listArchives(sync: SyncData): Promise<SyncFailure | null> {
    if (sync.mode !== 'full') return null
    const verdict: { refused?: SyncFailure } = {}
    const rollback = new Error('archive guard')
    await this.unitOfWork
      .run(async (tx) => {
        const listed = await this.syncs.listArchives(sync.id, tx)
        if (!listed) return
        const required =
          !sync.confirmArchives && archivesNeedConfirmation(listed.archives, listed.live)
        if (sync.simulated) {
          await this.syncs.requireConfirmation(sync.id, required, tx)
        } else if (required) {
          verdict.refused = { reason: 'too_many_archives', ...listed }
          throw rollback
        }
      })
      .catch((error) => {
        if (error !== rollback) throw error
      })
    return verdict.refused ?? null
  }

  async #next(sync: SyncData) {
    await this.syncs.prune(sync.agencyId, KEEP_DAYS)
    const next = await this.syncs.next(sync.agencyId)
    if (next !== null) await this.runner.send(STOCK_SYNC, { syncId: next })
  }

  /** `lost` when the lease was lost to another worker (this one stops). */
  async #run(sync: SyncData, agency: AgencyView | null): Promise<RunEnd> {
    for (let first = true; ; first = false) {
      // Asked at the start already.
      const stopped = first ? null : await this.#appStops(sync)
      if (stopped) return stopped
      const rows = await this.syncs.pending(sync.id, BATCH)
      if (rows.length === 0) return 'done'
      const judged = await this.#judge(sync, agency, rows)
      // Archives, then edits, then new listings: what is already published keeps its place
      // before new rows take the ones left.
      await this.#writeEach(
        sync,
        judged.filter((row) => row.writes)
      )
      await this.#createAll(sync, agency!, judged)
      // Creations that could not go together (see #createAll).
      await this.#writeEach(
        sync,
        judged.filter((row) => row.creates && row.writes)
      )
      await this.syncs.record(
        sync.id,
        judged.filter((row) => !row.writes && !row.creates)
      )
      if (!(await this.syncs.renew(sync.id, sync.holder!, leaseSeconds()))) return 'lost'
    }
  }

  /**
   * Rows that write, each in its own transaction with its result. A row that
   * fails for a reason of its own (not the database being away or busy) ends
   * `Rechazada`, logged, and the others go on; a passing fault stops the batch
   * and the job's retry resumes it.
   */
  async #writeEach(sync: SyncData, rows: Judged[]) {
    for (const row of rows) {
      try {
        await this.unitOfWork.run(async (tx) => {
          // Another worker that took over a lapsed lease may have done it already.
          const open = await this.syncs.holdUnfinished(sync.id, [row.position], tx)
          if (open.length === 0) return
          await this.syncs.record(sync.id, [await row.writes!(tx)], tx)
        })
      } catch (error) {
        if (passing(error)) throw error
        logger.error({ err: error, sync: sync.id, position: row.position }, 'stock sync row failed')
        await this.syncs.record(sync.id, [
          { position: row.position, outcome: 'rejected', rejection: fail('unexpected') },
        ])
      }
    }
  }

  /**
   * The batch's new listings, created together in one transaction with their
   * results (CreateListing.many). Should one of them meet a listing created
   * meanwhile by another request, the batch's creations go one by one instead.
   */
  async #createAll(sync: SyncData, agency: AgencyView, judged: Judged[]) {
    const creating = judged.filter((row) => row.creates)
    if (creating.length === 0) return
    try {
      await this.unitOfWork.run(async (tx) => {
        const open = new Set(
          await this.syncs.holdUnfinished(
            sync.id,
            creating.map((row) => row.position),
            tx
          )
        )
        const rows = creating.filter((row) => open.has(row.position))
        await this.syncs.record(sync.id, await this.#created(sync, agency, rows, tx), tx)
      })
    } catch (error) {
      // A listing created meanwhile, or one row's own failure: one by one, each with its result.
      if (passing(error)) throw error
      for (const row of creating) row.writes = (tx) => this.#createOne(sync, agency, row, tx)
    }
  }

  async #created(sync: SyncData, agency: AgencyView, rows: Judged[], tx: Tx): Promise<RowResult[]> {
    const created = await this.creator.many(
      { id: sync.appId },
      agency,
      rows.map((row) => row.creates!),
      tx
    )
    return rows.map((row, index) => {
      const result = created[index]
      return result.ok
        ? { position: row.position, outcome: 'created', notices: result.value.notices }
        : { position: row.position, outcome: 'rejected', rejection: result }
    })
  }

  async #createOne(sync: SyncData, agency: AgencyView, row: Judged, tx: Tx): Promise<RowResult> {
    const created = await this.creator.execute({ id: sync.appId }, agency, row.creates!, tx)
    return created.ok
      ? { position: row.position, outcome: 'created', notices: created.value.notices }
      : { position: row.position, outcome: 'rejected', rejection: created }
  }

  async #simulate(sync: SyncData, agency: AgencyView | null): Promise<RunEnd> {
    const results: RowResult[] = []
    const rollback = new Error('simulation')
    const verdict: { stopped?: SyncFailure } = {}
    await this.unitOfWork
      .run(async (tx) => {
        // A batch may end early (BATCH_BYTES): the next starts after its last row.
        for (let offset = 0, rows: PendingRow[]; ; offset += rows.length) {
          const stopped = offset > 0 ? await this.#appStops(sync) : null
          if (stopped) {
            verdict.stopped = stopped
            break
          }
          rows = await this.syncs.pending(sync.id, BATCH, offset)
          if (rows.length === 0) break
          const judged = await this.#judge(sync, agency, rows)
          // In the order of #run: archives, edits, then the new listings together.
          for (const row of judged) {
            if (row.creates) continue
            results.push(row.writes ? await this.unitOfWork.run(row.writes, { client: tx }) : row)
          }
          const creating = judged.filter((row) => row.creates)
          if (creating.length > 0) {
            results.push(...(await this.#created(sync, agency!, creating, tx)))
          }
          await this.syncs.renew(sync.id, sync.holder!, leaseSeconds())
        }
        throw rollback
      })
      .catch((error) => {
        if (error !== rollback) throw error
      })
    if (verdict.stopped) return verdict.stopped
    // All the results or none: a run cut short here simulates every row again (the rows
    // left, simulated alone, would not see what the rows before them would have done).
    await this.unitOfWork.run(async (tx) => {
      for (let start = 0; start < results.length; start += BATCH) {
        await this.syncs.record(sync.id, results.slice(start, start + BATCH), tx)
      }
    })
    return 'done'
  }

  /** Each row's result, or the write that will give it. */
  async #judge(sync: SyncData, agency: AgencyView | null, rows: PendingRow[]): Promise<Judged[]> {
    if (!agency) {
      return rows.map((row) => ({
        position: row.position,
        outcome: 'rejected',
        rejection: fail('no_listing'),
      }))
    }
    const caller = { id: sync.appId }
    const ids = rows.flatMap((row) => (row.externalId ? [row.externalId] : []))
    const existing = await this.listings.findMany(sync.appId, sync.agencyId, ids)
    // The probes of a batch read the agency's people and plan once.
    const probes = this.applyEdit.batchReads()
    const judged: Judged[] = []
    for (const row of rows) {
      const rejected = (rejection: RowRejection): Judged => ({
        position: row.position,
        outcome: 'rejected',
        rejection,
      })
      if (row.oversize) {
        judged.push(rejected(fail('row_too_large')))
        continue
      }
      const current = row.externalId ? existing.get(row.externalId.toLowerCase()) : undefined

      if (row.kind === 'archive') {
        if (!current) {
          judged.push(rejected(fail('no_listing')))
        } else if (current.state === 'archived') {
          judged.push({ position: row.position, outcome: 'unchanged' })
        } else {
          judged.push({
            position: row.position,
            outcome: 'archived',
            writes: async (tx) => {
              const done = await this.changer.execute({
                caller,
                agency,
                externalId: current.externalId,
                change: { kind: 'archive' },
                within: tx,
              })
              if (done.ok) return { position: row.position, outcome: 'archived' }
              return done.reason === 'archived'
                ? { position: row.position, outcome: 'unchanged' }
                : { position: row.position, outcome: 'rejected', rejection: done }
            },
          })
        }
        continue
      }

      const unknown = await this.bodyMembers.unknownIn(ROW_OPERATION, row.payload)
      if (unknown.length > 0) {
        judged.push(rejected(fail('unknown_members', { details: unknown })))
        continue
      }
      const [error, body] = await listingCreateValidator.tryValidate(row.payload)
      if (error) {
        judged.push(rejected(bodyRejection(error)))
        continue
      }
      const input = toCreateInput(body)

      if (!current) {
        judged.push({ position: row.position, outcome: 'created', creates: input })
        continue
      }
      // Archived listings are never revived: the PUT's own 409.
      if (current.state === 'archived') {
        judged.push(rejected(fail('archived')))
        continue
      }
      const request: ChangeRequest = {
        caller,
        agency,
        externalId: current.externalId,
        change: { kind: 'edit', input },
      }
      const probed = await this.changer.unchanged(request, toRecord(current), probes)
      if (probed) {
        judged.push({ position: row.position, outcome: 'unchanged', notices: probed.notices })
        continue
      }
      judged.push({
        position: row.position,
        outcome: 'updated',
        writes: async (tx) => {
          const changed = await this.changer.execute({ ...request, within: tx })
          if (!changed.ok) {
            return { position: row.position, outcome: 'rejected', rejection: changed }
          }
          const { record, notices } = changed.value
          const same = record.listing.revision === current.revision
          return { position: row.position, outcome: same ? 'unchanged' : 'updated', notices }
        },
      })
    }
    return judged
  }
}

/** The validator's refusal of a row's body: each failure's field, rule and (already worded) message. */
function bodyRejection(error: unknown): RowRejection {
  if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
  const messages: { field: string; rule: string; message: string }[] = error.messages
  return fail('invalid_body', {
    details: messages.map(({ field, rule, message }) => ({ field, rule, message })),
  })
}
