import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { idOf } from '#core/commands/command_input'
import type { AgencyView } from '#agencies/services/agency_directory'
import type { SyncData } from '#listings/stores/sync_store'

/** How often the bar reads the sync's progress, and a waiting sync tries for its turn again. */
const POLL_MS = 250
const RETRY_MS = 2000
/** Rejected rows printed with their Errors at the end (the rest: GET …/resultados?resultado=Rechazada). */
const SHOWN_REJECTED = 20

/**
 * Customer support (docs/design.md §15): a dealer's inventory FILE synced as
 * the API would take it, run in this process with a progress bar. A `.csv`
 * file is the API's CSV; any other is JSON: an array of rows, or the POST's
 * body (`{Publicaciones, Bajas}`; a Modo, Simular or ConfirmarBajas in it must
 * agree with the flags). Same guards as the API; `--json` prints only the
 * Sincronizacion.
 */
export default class StockSync extends AppCommand {
  static commandName = 'stock:sync'
  static description =
    "Sync an agency's stock from a JSON or CSV FILE as an app would, with a progress bar"

  @args.string({ description: 'Administrator e-mail of the agency' })
  declare adminmail: string

  @args.string({ description: 'Inventory: .csv (header of wire names), else JSON' })
  declare file: string

  // Text, checked by idOf: a number flag lets 99999999999 reach the database.
  @flags.string({
    flagName: 'app',
    description: 'Id of the app the listings belong to',
    required: true,
  })
  declare appOf: string

  /** `--app`, once checked. */
  private appId = 0

  @flags.boolean({
    description: "Modo Completa: also archive the app's listings the file leaves out",
  })
  declare completa: boolean

  @flags.boolean({ description: 'Compute every result and write nothing but the sync' })
  declare simular: boolean

  @flags.boolean({
    flagName: 'confirmar-bajas',
    description: 'Allow a Completa that archives more than 20 % (and more than 5) of the listings',
  })
  declare confirmarBajas: boolean

  @flags.boolean({ description: 'Print only the Sincronizacion, as JSON' })
  declare json: boolean

  async run() {
    const appId = idOf(this.appOf)
    if (appId === null) return this.fail('--app must be an app id (a positive integer)')
    this.appId = appId
    const { stat } = await import('node:fs/promises')
    const { createReadStream } = await import('node:fs')
    const { readInventoryFile, requestErrors } = await import('#listings/commands/inventory_file')
    const { MAX_BYTES } = await import('#listings/validators/inventory')
    const { default: AgencyDirectory } = await import('#agencies/services/agency_directory')
    const { default: StartSync } = await import('#listings/services/start_sync')

    const size = await stat(this.file).then(
      (found) => (found.isFile() ? found.size : null),
      () => null
    )
    if (size === null) return this.fail(`Cannot read ${this.file}`)
    if (size > MAX_BYTES) {
      return this.fail(`${this.file} has ${size} bytes; a sync takes up to ${MAX_BYTES} (20 MiB)`)
    }

    const directory = await this.app.container.make(AgencyDirectory)
    const agency = await directory.forApp(this.appId, this.adminmail)
    if (!agency) {
      return this.fail(`No agency administered by ${this.adminmail} is linked to app ${this.appId}`)
    }

    const options = {
      mode: this.completa ? ('full' as const) : ('partial' as const),
      simulate: Boolean(this.simular),
      confirmArchives: Boolean(this.confirmarBajas),
    }
    let inventory
    try {
      inventory = await readInventoryFile(this.file, createReadStream(this.file), options)
    } catch (error) {
      const errors = requestErrors(error)
      if (!errors) throw error
      return this.fail(`${this.file} is refused as a request would be (400):\n${errors}`)
    }

    const starter = await this.app.container.make(StartSync)
    const started = await starter.execute({ id: this.appId }, agency, inventory)
    if (!started.ok) {
      // The API's 409, in the command's words.
      const { archives, live } = started.details!
      return this.fail(
        `Refused (409): the Completa sync would archive ${archives} of the ${live} live listings ` +
          `of app ${this.appId} in the agency (more than 20 % and more than 5). ` +
          'Run it again with --confirmar-bajas if that is intended.'
      )
    }
    const sync = await this.#runWithProgress(agency, started.value.id, started.value.total)
    await this.#report(agency, sync)
  }

  /** Runs the sync here (or waits for the worker that holds it), drawing its progress. */
  async #runWithProgress(agency: AgencyView, syncId: number, total: number): Promise<SyncData> {
    const { default: RunSync } = await import('#listings/services/run_sync')
    const { default: SyncReader } = await import('#listings/services/sync_reader')
    const { Presets, SingleBar } = await import('cli-progress')

    const runner = await this.app.container.make(RunSync)
    const reader = await this.app.container.make(SyncReader)
    const caller = { id: this.appId }
    const read = async () => (await reader.find(caller, agency, syncId))!
    // The rows' members come from the OpenAPI document, built from the routes: the HTTP
    // server commits them when it starts, a console process does it here (as openapi:dump).
    const router = await this.app.container.make('router')
    router.commit()

    // On stderr: stdout is the summary (or, with --json, the one JSON document).
    const bar = new SingleBar(
      { format: 'sync       [{bar}] {value}/{total} {state}', stream: process.stderr },
      Presets.shades_classic
    )
    bar.start(total, 0, { state: '' })
    let running = true
    const drawing = (async () => {
      while (running) {
        await sleep(POLL_MS)
        const now = await read().catch(() => null)
        if (now) bar.update(now.processed, { state: now.state })
      }
    })()
    try {
      for (;;) {
        const outcome = await runner.execute(syncId)
        if (outcome !== 'waiting') break
        // Another worker holds it (or an older sync of the agency runs): poll, and take
        // it over if that worker dies and its lease lapses.
        await sleep(RETRY_MS)
      }
    } finally {
      running = false
      await drawing
    }
    const done = await read()
    bar.update(done.processed, { state: done.state })
    bar.stop()
    return done
  }

  async #report(agency: AgencyView, sync: SyncData) {
    const { resultErrors, syncFull } = await import('#listings/transformers/sync_transformer')
    const wire = syncFull(agency, sync)
    if (this.json) return this.printJson(wire)

    const { default: SyncReader } = await import('#listings/services/sync_reader')
    const reader = await this.app.container.make(SyncReader)
    const counts = wire.Resumen
    const line = `${counts.Creadas} created, ${counts.Actualizadas} updated, ${counts.SinCambios} unchanged, ${counts.Archivadas} archived, ${counts.Rechazadas} rejected`
    const title = `Sync ${sync.id} of ${agency.adminMail} (${wire.Modo}${sync.simulated ? ', simulated: nothing written' : ''}): ${wire.Estado}`
    this.logger.log(`${title}\n  ${line} of ${sync.total}`)
    // Why it failed, as the API shows it (Problema).
    if (wire.Problema) this.logger.log(`  ${wire.Problema.Detail}`)
    if (sync.counts.rejected > 0) {
      const found = await reader.results({ id: this.appId }, agency, sync.id, {
        outcome: 'rejected',
        page: 1,
      })
      for (const row of found?.rows.slice(0, SHOWN_REJECTED) ?? []) {
        const errors = Object.entries(resultErrors(row) ?? {})
          .map(([key, messages]) => `${key}: ${messages.join(' ')}`)
          .join('; ')
        this.logger.log(`  row ${row.position} ${row.externalId ?? '(no ExternalId)'}: ${errors}`)
      }
      if (sync.counts.rejected > SHOWN_REJECTED) {
        this.logger.log(`  … ${sync.counts.rejected - SHOWN_REJECTED} more rejected rows`)
      }
    }
    if (sync.state === 'failed') this.exitCode = 1
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
