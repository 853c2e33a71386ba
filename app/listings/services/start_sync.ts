/*
 * Receives a stock sync (docs/design.md §15): the guards (a full sync's
 * archives are counted now, and again on the list built when it starts —
 * RunSync), then the sync and its rows stored and its job queued in one
 * transaction, so a 202 always has a worker coming. Rows refused before any
 * work (two rows naming one ExternalId, a Baja also sent as a row, a row too
 * large for any listing) get their result here. A simulation is never refused
 * by the archive guard: it says a real run would need ConfirmarBajas
 * (docs/design.md §24).
 */
import { inject } from '@adonisjs/core'
import { fail, ok, type Fail, type Ok } from '#core/result'
import UnitOfWork from '#core/database/unit_of_work'
import JobRunner from '#core/jobs/runner'
import type { Caller } from '#core/auth/app_scoped'
import type { AgencyView } from '#agencies/services/agency_directory'
import { STOCK_SYNC } from '#listings/queues'
import type { Inventory } from '#listings/validators/inventory'
import SyncStore, {
  MAX_ROW_BYTES,
  type NewSyncRow,
  type RowRefusal,
  type SyncData,
} from '#listings/stores/sync_store'

/** A full sync may archive up to this share of the app's live listings of the agency… */
export const ARCHIVE_SHARE = 0.2
/** …or up to this many, whichever is more, without `ConfirmarBajas`. */
export const ARCHIVE_FLOOR = 5

/** The drop guard: archiving `archives` of `live` listings needs ConfirmarBajas. */
export function archivesNeedConfirmation(archives: number, live: number) {
  return archives > ARCHIVE_FLOOR && archives > live * ARCHIVE_SHARE
}

/** A row's JSON beyond MAX_ROW_BYTES (UTF-8): the length bounds the bytes from both sides. */
function tooLarge(payload: string) {
  return (
    payload.length > MAX_ROW_BYTES ||
    (payload.length * 3 > MAX_ROW_BYTES && Buffer.byteLength(payload) > MAX_ROW_BYTES)
  )
}

export type SyncRefusal = Fail<'too_many_archives', { archives: number; live: number }>

@inject()
export default class StartSync {
  constructor(
    private syncs: SyncStore,
    private unitOfWork: UnitOfWork,
    private runner: JobRunner
  ) {}

  async execute(
    caller: Caller,
    agency: AgencyView,
    inventory: Inventory
  ): Promise<Ok<SyncData> | SyncRefusal> {
    const seen = new Map<string, number>()
    for (const row of inventory.rows) {
      if (row.externalId === null) continue
      const key = row.externalId.toLowerCase()
      seen.set(key, (seen.get(key) ?? 0) + 1)
    }
    const rows: NewSyncRow[] = inventory.rows.map((row, index) => {
      const repeated = row.externalId !== null && seen.get(row.externalId.toLowerCase())! > 1
      // The worker reads rows a batch at a time: none may be huge (docs/design.md §25).
      const refused: RowRefusal | null = repeated
        ? 'repeated_external_id'
        : tooLarge(row.payload)
          ? 'row_too_large'
          : null
      return {
        position: index + 1,
        kind: 'upsert',
        externalId: row.externalId,
        payload: refused ? null : row.payload,
        ...(refused ? { outcome: 'rejected', rejection: fail(refused) } : {}),
      }
    })

    let archives: NewSyncRow[]
    let confirmationRequired = false
    if (inventory.mode === 'full') {
      const absent = await this.syncs.countAbsent(caller.id, agency.id, [...seen.keys()])
      const count = absent.absent
      if (!inventory.confirmArchives && archivesNeedConfirmation(count, absent.live)) {
        if (!inventory.simulate) {
          return fail('too_many_archives', { details: { archives: count, live: absent.live } })
        }
        // Said again on the list built when it starts.
        confirmationRequired = true
      }
      // Listed when the sync starts (SyncStore.listArchives): a sync queued behind another
      // then also archives what that one created.
      archives = []
    } else {
      const named = new Set<string>()
      archives = []
      for (const externalId of inventory.archives) {
        const key = externalId.toLowerCase()
        if (named.has(key)) continue
        named.add(key)
        const sent = seen.has(key)
        archives.push({
          position: rows.length + archives.length + 1,
          kind: 'archive',
          externalId,
          payload: null,
          ...(sent ? { outcome: 'rejected', rejection: fail('archive_also_sent') } : {}),
        })
      }
    }

    const all = [...rows, ...archives]
    const sync = await this.unitOfWork.run(async (tx) => {
      const created = await this.syncs.create(
        {
          appId: caller.id,
          agencyId: agency.id,
          adminEmail: agency.adminMail,
          mode: inventory.mode,
          simulated: inventory.simulate,
          confirmArchives: inventory.confirmArchives,
          confirmationRequired,
          archivesPending: inventory.mode === 'full',
        },
        all.length,
        tx
      )
      await this.syncs.insertRows(created.id, all, tx)
      await this.runner.send(STOCK_SYNC, { syncId: created.id }, { trx: tx })
      return created
    })
    return ok((await this.syncs.findById(sync.id)) ?? sync)
  }
}
