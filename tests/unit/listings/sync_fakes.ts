/*
 * Hand-rolled fakes for the stock sync actions' unit specs (StartSync,
 * RunSync): the sync store over arrays, a unit of work that really rolls
 * back what the fakes hold, and the collaborators from other modules. The
 * listing side (CreateListing, ChangeListing on a fake listing store) is the
 * one of ./fakes.ts. Nothing here touches PostgreSQL.
 */
import type { Tx, UnitOfWork } from '#core/database/unit_of_work'
import type JobRunner from '#core/jobs/runner'
import type AppEvents from '#apps/services/app_events'
import type AppStanding from '#apps/services/app_standing'
import type { Standing } from '#apps/services/app_standing'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type { AgencyView } from '#agencies/services/agency_directory'
import type { ListingData } from '#listings/models/listing'
import type ListingStore from '#listings/stores/listing_store'
import type SyncStore from '#listings/stores/sync_store'
import type {
  NewSync,
  NewSyncRow,
  PendingRow,
  RowResult,
  SyncData,
  SyncFailure,
  SyncOutcome,
  SyncState,
} from '#listings/stores/sync_store'
import type BodyMembers from '#core/services/body_members'
import type { UnknownMember } from '#core/services/body_members'
import RunSync from '#listings/services/run_sync'
import StartSync from '#listings/services/start_sync'
import { FAKE_TX } from '#tests/helpers/fakes'
import { AGENCY, APP_ID, world } from './fakes.js'

type StoredRow = NewSyncRow & { payloadValue: unknown; notices?: readonly object[] }

const zero = (): Record<SyncOutcome, number> => ({
  created: 0,
  updated: 0,
  unchanged: 0,
  archived: 0,
  rejected: 0,
})

/**
 * The sync store over arrays. `calls` names each method asked, with " (tx)"
 * inside a transaction; `live` (listings of the app and agency, not archived)
 * answers `countAbsent` for StartSync.
 */
export class FakeSyncStore implements Pick<
  SyncStore,
  | 'create'
  | 'insertRows'
  | 'findById'
  | 'countAbsent'
  | 'listArchives'
  | 'requireConfirmation'
  | 'claim'
  | 'renew'
  | 'pending'
  | 'holdUnfinished'
  | 'record'
  | 'finish'
  | 'next'
  | 'prune'
> {
  syncs: Array<SyncData & { archivesPending?: boolean; progressMark?: number }> = []
  rows = new Map<number, StoredRow[]>()
  calls: string[] = []
  /** ExternalIds of the app's live listings of the agency (StartSync's guard). */
  live: string[] = []
  /** Another worker holds the turn (claim answers null; the sync stays running). */
  heldElsewhere = false
  /** `renew` answers false from this call on (1-based): the lease was lost. */
  loseLeaseAtRenew = Infinity
  renewals = 0
  claims = 0
  /** The agency's next sync, when there is one. */
  nextId: number | null = null

  #log(name: string, tx?: Tx) {
    if (tx && !(tx as any).fake) throw new Error('expected the fake transaction')
    this.calls.push(tx ? `${name} (tx)` : name)
  }

  sync(id: number) {
    const found = this.syncs.find((sync) => sync.id === id)
    if (!found) throw new Error(`no sync ${id}`)
    return found
  }

  /** The rows of a sync as stored, in position order. */
  rowsOf(id: number) {
    return [...(this.rows.get(id) ?? [])].sort((a, b) => a.position - b.position)
  }

  /** `{position: outcome}` of a sync's rows (undefined: no result yet). */
  outcomes(id: number) {
    return Object.fromEntries(this.rowsOf(id).map((row) => [row.position, row.outcome]))
  }

  /** A stored sync with its rows, as StartSync leaves it (for RunSync's specs). */
  seed(sync: Partial<SyncData>, rows: Array<Omit<NewSyncRow, 'payload'> & { payload?: unknown }>) {
    const id = this.syncs.length + 1
    this.syncs.push({
      id,
      appId: APP_ID,
      agencyId: AGENCY.id,
      adminEmail: AGENCY.adminMail,
      mode: 'partial',
      simulated: false,
      state: 'pending',
      total: rows.length,
      processed: rows.filter((row) => row.outcome).length,
      counts: zero(),
      receivedAt: new Date(),
      finishedAt: null,
      confirmArchives: false,
      confirmationRequired: false,
      failure: null,
      ...sync,
    })
    this.rows.set(
      id,
      rows.map((row) => ({
        ...row,
        payload: row.payload === undefined ? null : JSON.stringify(row.payload),
        payloadValue: row.payload ?? null,
      }))
    )
    return id
  }

  async create(sync: NewSync, total: number, tx: Tx) {
    this.#log('create', tx)
    const created: SyncData = {
      ...sync,
      id: this.syncs.length + 1,
      state: 'pending',
      total,
      processed: 0,
      counts: zero(),
      receivedAt: new Date(),
      finishedAt: null,
      failure: null,
    }
    this.syncs.push(created)
    return { ...created, counts: { ...created.counts } }
  }

  async insertRows(syncId: number, rows: NewSyncRow[], tx: Tx) {
    this.#log('insertRows', tx)
    this.rows.set(
      syncId,
      rows.map((row) => ({
        ...row,
        payloadValue: row.payload === null ? null : JSON.parse(row.payload),
      }))
    )
    const refused = rows.filter((row) => row.outcome === 'rejected').length
    const sync = this.sync(syncId)
    sync.processed += refused
    sync.counts.rejected += refused
  }

  async findById(id: number, tx?: Tx) {
    this.#log('findById', tx)
    const found = this.syncs.find((sync) => sync.id === id)
    return found ? { ...found, counts: { ...found.counts } } : null
  }

  /** A full sync's archives when it starts: the `live` listings no row names, after the rows. */
  async listArchives(syncId: number, tx: Tx) {
    this.#log('listArchives', tx)
    const sync = this.sync(syncId) as SyncData & { archivesPending?: boolean }
    if (!sync.archivesPending) return null
    sync.archivesPending = false
    let archives = 0
    const rows = this.rows.get(syncId) ?? []
    this.rows.set(syncId, rows)
    const named = new Set(
      rows.filter((row) => row.kind === 'upsert').map((row) => row.externalId?.toLowerCase())
    )
    for (const externalId of this.live.filter((one) => !named.has(one.toLowerCase()))) {
      rows.push({
        position: sync.total + 1,
        kind: 'archive',
        externalId,
        payload: null,
        payloadValue: null,
      } as StoredRow)
      sync.total += 1
      archives += 1
    }
    return { archives, live: this.live.length }
  }

  async requireConfirmation(syncId: number, required: boolean, tx: Tx) {
    this.#log(`requireConfirmation ${required}`, tx)
    this.sync(syncId).confirmationRequired = required
  }

  async countAbsent(appId: number, agencyId: number, keep: string[]) {
    this.#log(`countAbsent ${appId} ${agencyId}`)
    return {
      absent: this.live.filter((externalId) => !keep.includes(externalId.toLowerCase())).length,
      live: this.live.length,
    }
  }

  async claim(syncId: number, _leaseSeconds: number) {
    this.#log('claim')
    const sync = this.syncs.find((one) => one.id === syncId)
    if (!sync || this.heldElsewhere) return null
    if (sync.state !== 'pending' && sync.state !== 'running') return null
    sync.state = 'running'
    sync.holder = `holder-${++this.claims}`
    // Starts at the same progress are counted (a worker killed on one row each time).
    sync.starts = sync.progressMark === sync.processed ? (sync.starts ?? 0) + 1 : 1
    sync.progressMark = sync.processed
    return { ...sync, counts: { ...sync.counts } }
  }

  async renew(syncId: number, holder: string, _leaseSeconds: number) {
    this.#log('renew')
    this.renewals += 1
    const sync = this.sync(syncId)
    return (
      this.renewals < this.loseLeaseAtRenew && sync.state === 'running' && sync.holder === holder
    )
  }

  async pending(syncId: number, limit: number, offset = 0): Promise<PendingRow[]> {
    this.#log(`pending ${offset}`)
    return this.rowsOf(syncId)
      .filter((row) => !row.outcome)
      .sort((a, b) => Number(a.kind === 'upsert') - Number(b.kind === 'upsert'))
      .slice(offset, offset + limit)
      .map((row) => ({
        position: row.position,
        kind: row.kind,
        externalId: row.externalId,
        payload: structuredClone(row.payloadValue),
      }))
  }

  async holdUnfinished(syncId: number, positions: number[], tx: Tx) {
    this.#log(`holdUnfinished ${positions.join(',')}`, tx)
    return positions.filter(
      (position) => !this.rowsOf(syncId).find((row) => row.position === position)?.outcome
    )
  }

  async record(syncId: number, results: RowResult[], tx?: Tx) {
    if (!results.length) return
    this.#log(`record ${results.map((result) => result.position).join(',')}`, tx)
    const sync = this.sync(syncId)
    for (const result of results) {
      const row = this.rowsOf(syncId).find((one) => one.position === result.position)
      if (!row || row.outcome) continue
      Object.assign(row, {
        outcome: result.outcome,
        rejection: result.rejection ?? undefined,
        notices: result.notices ?? undefined,
        payload: null,
        payloadValue: null,
      })
      sync.processed += 1
      sync.counts[result.outcome] += 1
    }
  }

  async finish(syncId: number, state: 'done' | 'failed', tx?: Tx, failure?: SyncFailure) {
    this.#log(`finish ${state}${failure ? ` ${failure.reason}` : ''}`, tx)
    const sync = this.sync(syncId)
    if (sync.state !== 'pending' && sync.state !== 'running') return null
    sync.state = state as SyncState
    sync.failure = failure ?? null
    sync.finishedAt = new Date()
    return { ...sync, counts: { ...sync.counts } }
  }

  async next(_agencyId: number) {
    this.#log('next')
    return this.nextId
  }

  async prune(_agencyId: number, _days: number) {
    this.#log('prune')
  }
}

/**
 * A unit of work whose rollback is real for the fakes it guards: what their
 * arrays held when the unit began is put back when the work throws. A unit
 * inside another (`{ client: tx }`) is a savepoint: it rolls back only itself.
 */
export class RollbackUnitOfWork implements Pick<UnitOfWork, 'run'> {
  committed = 0
  rolledBack = 0

  constructor(
    private listings: { rows: ListingData[] },
    private syncs: FakeSyncStore
  ) {}

  async run<T>(work: (tx: Tx) => Promise<T>, _options?: { client?: Tx }): Promise<T> {
    const listings = structuredClone(this.listings.rows)
    const syncs = structuredClone(this.syncs.syncs)
    const rows = structuredClone(this.syncs.rows)
    try {
      const value = await work(FAKE_TX)
      this.committed++
      return value
    } catch (error) {
      this.rolledBack++
      this.listings.rows = listings
      this.syncs.syncs = syncs
      this.syncs.rows = rows
      throw error
    }
  }
}

/** Jobs sent (queue, data, and whether inside a transaction). */
export class FakeJobRunner implements Pick<JobRunner, 'send'> {
  sent: { name: string; data: object; inTransaction: boolean }[] = []

  async send<T extends object>(name: string, data: T, options: { trx?: unknown } = {}) {
    this.sent.push({ name, data, inTransaction: options.trx !== undefined })
    return 'job-id'
  }
}

/** App events emitted (SincronizacionTerminada). */
export class FakeAppEvents implements Pick<AppEvents, 'emit'> {
  emitted: { appId: number; topic: string; input: any }[] = []

  async emit(appId: number, topic: any, input: any, tx: any) {
    if (!tx?.fake) throw new Error('expected the fake transaction')
    this.emitted.push({ appId, topic, input })
    return null
  }
}

/** The apps module's standing of the test app: `active` unless a spec says otherwise. */
export class FakeAppStanding implements Pick<AppStanding, 'of'> {
  standing: Standing = 'active'
  asked = 0
  /** Called on each question (before answering): a spec disables the app mid-sync here. */
  onAsk: (asked: number) => void = () => {}

  async of(_appId: number) {
    this.asked += 1
    this.onAsk(this.asked)
    return this.standing
  }
}

/** The agencies module's `forApp`: the test agency for the test app; `gone` after a detach. */
export class FakeSyncDirectory implements Pick<AgencyDirectory, 'forApp'> {
  gone = false

  async forApp(appId: number, adminMail: string): Promise<AgencyView | null> {
    return !this.gone && appId === APP_ID && adminMail === AGENCY.adminMail ? AGENCY : null
  }
}

/** The create body's members, as far as the specs go: any but `Desconocido` (the real ones: the OpenAPI document). */
export class FakeBodyMembers implements Pick<BodyMembers, 'unknownIn'> {
  operations: string[] = []

  async unknownIn(operation: string, body: unknown): Promise<UnknownMember[]> {
    this.operations.push(operation)
    return body && typeof body === 'object' && 'Desconocido' in body
      ? [{ path: 'Desconocido' }]
      : []
  }
}

/** StartSync and RunSync on one set of fakes, with the listing actions of ./fakes.ts. */
export function syncWorld() {
  const w = world()
  // RunSync reads the listing store the listing actions write.
  const listings = w.store
  const syncs = new FakeSyncStore()
  const unitOfWork = new RollbackUnitOfWork(listings, syncs)
  const runner = new FakeJobRunner()
  const appEvents = new FakeAppEvents()
  const directory = new FakeSyncDirectory()
  const standing = new FakeAppStanding()
  const bodyMembers = new FakeBodyMembers()
  const starter = new StartSync(
    syncs as unknown as SyncStore,
    unitOfWork as unknown as UnitOfWork,
    runner as unknown as JobRunner
  )
  const runSync = new RunSync(
    syncs as unknown as SyncStore,
    listings as unknown as ListingStore,
    directory as unknown as AgencyDirectory,
    w.creator,
    w.changer,
    w.applyEdit,
    unitOfWork as unknown as UnitOfWork,
    appEvents as unknown as AppEvents,
    runner as unknown as JobRunner,
    standing as unknown as AppStanding,
    bodyMembers as unknown as BodyMembers
  )
  return {
    ...w,
    listings,
    syncs,
    unitOfWork,
    runner,
    appEvents,
    syncDirectory: directory,
    standing,
    bodyMembers,
    starter,
    runSync,
  }
}
