import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import { Problem } from '#core/http/problem'
import { bodyChunks } from '#core/http/streamed_body'
import { settings } from '#core/settings'
import Idempotency from '#core/http/idempotency'
import { withIdempotencyKey } from '#core/http/middleware/idempotency_middleware'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import { NOT_FOR_APP, syncProblemFor } from '#listings/http/problems'
import StartSync from '#listings/services/start_sync'
import SyncReader, { RESULTS_PER_PAGE } from '#listings/services/sync_reader'
import {
  csvQueryValidator,
  MAX_BYTES,
  readCsvInventory,
  readJsonInventory,
} from '#listings/validators/inventory'
import {
  syncParamsValidator,
  syncResultsQueryValidator,
  toOutcome,
} from '#listings/validators/sync'
import {
  resultPageShapes,
  syncHref,
  syncListShapes,
  syncShapes,
} from '#listings/transformers/sync_transformer'

const NO_SYNC = 'La sincronización no existe para esta aplicación y agencia.'

/** Stock syncs of an agency (docs/design.md §15). The inventory is read as it arrives. */
export default class SyncsController {
  @inject()
  async store(ctx: HttpContext, starter: StartSync, idempotency: Idempotency) {
    await ctx.request.validateUsing(syncParamsValidator, { data: ctx.params })
    const chunks = bodyChunks(ctx.request.request, MAX_BYTES)
    const csv = (ctx.request.header('content-type') ?? '').toLowerCase().startsWith('text/csv')
    const inventory = csv
      ? await readCsvInventory(
          chunks,
          await ctx.request.validateUsing(csvQueryValidator, { data: ctx.request.qs() })
        )
      : await readJsonInventory(chunks)
    const agency = await agencyOfCaller(ctx, 'write', NOT_FOR_APP)
    return withIdempotencyKey(
      ctx,
      idempotency,
      () => inventory.bodyHash,
      async () => {
        const started = await starter.execute(ctx.caller, agency, inventory)
        if (!started.ok) throw syncProblemFor(started)
        const location = settings.publicUrl + syncHref(agency, started.value.id)
        return respond(ctx, syncShapes(agency, started.value), { status: 202, location })
      }
    )
  }

  @inject()
  async index(ctx: HttpContext, reader: SyncReader) {
    await ctx.request.validateUsing(syncParamsValidator, { data: ctx.params })
    const agency = await agencyOfCaller(ctx, 'read', NOT_FOR_APP)
    return respond(ctx, syncListShapes(agency, await reader.recent(ctx.caller, agency)))
  }

  @inject()
  async show(ctx: HttpContext, reader: SyncReader) {
    const { id } = await ctx.request.validateUsing(syncParamsValidator, { data: ctx.params })
    const agency = await agencyOfCaller(ctx, 'read', NOT_FOR_APP)
    const sync = await reader.find(ctx.caller, agency, id!)
    if (!sync) throw Problem.notFound(NO_SYNC)
    return respond(ctx, syncShapes(agency, sync))
  }

  @inject()
  async results(ctx: HttpContext, reader: SyncReader) {
    const { id } = await ctx.request.validateUsing(syncParamsValidator, { data: ctx.params })
    const query = await ctx.request.validateUsing(syncResultsQueryValidator, {
      data: ctx.request.qs(),
    })
    const agency = await agencyOfCaller(ctx, 'read', NOT_FOR_APP)
    const page = query.pagina ?? 1
    const found = await reader.results(ctx.caller, agency, id!, {
      outcome: toOutcome(query.resultado),
      page,
    })
    if (!found) throw Problem.notFound(NO_SYNC)
    const { sync, rows, total } = found
    return respond(
      ctx,
      resultPageShapes(
        agency,
        sync,
        rows,
        { page, perPage: RESULTS_PER_PAGE, total },
        {
          resultado: query.resultado,
        }
      )
    )
  }
}
