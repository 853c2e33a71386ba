/*
 * A typed client, proven (issue 12): TypeScript types generated from the served document with
 * openapi-typescript, a dealer scenario written with openapi-fetch
 * (tests/fixtures/typed_client/dealer_scenario.ts) type-checked by `tsc --strict`, then run
 * against this server with every response checked against the document.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import openapiTS, { astToString } from 'openapi-typescript'
import { assertContract } from '#tests/helpers/contract'
import { baseUrl } from '#tests/helpers/http'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import { uniqueExternalId } from '#tests/helpers/listings'
import { startReceiver } from '#tests/helpers/receiver'
import JobRunner from '#core/jobs/runner'

const run = promisify(execFile)
const OUT = app.makePath('tmp/typed_client')
const SCENARIO = app.makePath('tests/fixtures/typed_client/dealer_scenario.ts')

/** A fetch for openapi-fetch that checks each response like the suite's other clients. */
async function checkedFetch(request: Request) {
  const method = request.method
  const response = await fetch(request)
  await assertContract({
    method,
    path: new URL(response.url).pathname,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.clone().arrayBuffer()),
  })
  return response
}

test.group('Typed client (openapi-typescript + openapi-fetch)', () => {
  test('the generated types compile a dealer scenario under strict tsc, and it runs', async ({
    client,
    assert,
  }) => {
    const document = (await client.get('/v3/openapi.json')).body()
    await mkdir(OUT, { recursive: true })
    await writeFile(`${OUT}/schema.d.ts`, astToString(await openapiTS(document)))
    await writeFile(
      `${OUT}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          skipLibCheck: true,
        },
        files: [SCENARIO, `${OUT}/schema.d.ts`],
      })
    )
    const tsc = app.makePath('node_modules/typescript/bin/tsc')
    const checked = await run(process.execPath, [tsc, '-p', `${OUT}/tsconfig.json`]).then(
      () => '',
      (error) => `${error.stdout}${error.stderr}`
    )
    assert.equal(checked, '', 'tsc --strict on the scenario')

    await seedCatalog()
    const { app: dealer, token } = await createCaller('typed dealer app', ['consultas:crear'])
    const { agency } = await createAgency(dealer)
    const externalId = uniqueExternalId('typed')
    const buyerEmail = uniqueEmail('buyer')
    // Loaded by URL: the app's own type check leaves the fixture (and its generated types) out.
    const { dealerScenario } = (await import(pathToFileURL(SCENARIO).href)) as {
      dealerScenario: (options: Record<string, unknown>) => Promise<Record<string, any>>
    }
    const receiver = await startReceiver()
    const runner = await app.container.make(JobRunner)
    const syncedExternalId = uniqueExternalId('typed-sync')
    const result = await dealerScenario({
      baseUrl: baseUrl(),
      token,
      adminMail: agency.adminMail,
      externalId,
      buyerEmail,
      callback: receiver.url('/typed-leads'),
      fetch: checkedFetch,
      syncedExternalId,
      // No worker runs in the suite's process: the sync's job runs here while the dealer waits.
      whileWaiting: (syncId: number) => runner.runNow('stock.sync', { syncId }),
    }).finally(() => receiver.close())
    assert.equal(result.created.ExternalId, externalId)
    assert.equal(result.listing.ExternalId, externalId)
    assert.equal(result.listing.Marca, 'Toyota')
    assert.equal(result.consulta.Auto.ExternalId, externalId)
    assert.equal(result.consulta.Interesado.Email, buyerEmail)
    assert.equal(result.solicitud.Tipo, 'Acceso')
    assert.equal(result.solicitud.Estado, 'Pendiente')
    assert.equal(
      result.consulta._links.self.href,
      `/v3/consultas/${agency.adminMail}/${result.sid}`
    )
    assert.include(result.sync, { Modo: 'Parcial', Estado: 'Terminada', Total: 2, Procesadas: 2 })
    assert.include(result.sync.Resumen, { Creadas: 1, SinCambios: 1, Rechazadas: 0 })
    assert.deepEqual(
      result.syncResults.map((row: any) => [row.ExternalId, row.Resultado]),
      [
        [externalId, 'SinCambios'],
        [syncedExternalId, 'Creada'],
      ]
    )
  }).timeout(180_000)
})
