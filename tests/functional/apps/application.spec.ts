/*
 * Settings an app can see (docs/design.md §19): GET /v3/aplicacion answers the
 * calling app's id, name and abilities; `ace app:ability` adds or removes one
 * and every web process applies it within the 5 s credential memory.
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { CREDENTIAL_TTL_MS } from '#apps/services/credential_memory'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { inquiryBody } from '#tests/helpers/leads'
import { seedCatalog } from '#tests/helpers/catalog'
import { until } from '#tests/helpers/until'

const run = promisify(execFile)
const REF = 'application/vnd.service.ref+json'

/** `node ace …` as an operator runs it; resolves to the exit code and output, never rejects. */
async function ace(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['ace', ...args], {
      cwd: app.makePath(),
      env: { ...process.env, LOG_LEVEL: 'info' },
    })
    return { code: 0, out: `${stdout}${stderr}` }
  } catch (error: any) {
    return { code: error.code as number, out: `${error.stdout}${error.stderr}` }
  }
}

test.group('GET /v3/aplicacion', () => {
  test('the calling app: Id, Nombre, Habilidades; never another app', async ({
    client,
    assert,
  }) => {
    const { app: mine, token } = await createCaller('Mi concesionaria', ['consultas:crear'])
    const { app: other, token: otherToken } = await createCaller('Otra')
    const read = await client.get('/v3/aplicacion').bearerToken(token)
    read.assertStatus(200)
    assert.deepEqual(read.body(), {
      Id: mine.id,
      Nombre: 'Mi concesionaria',
      Habilidades: ['consultas:crear'],
      _links: { self: { href: '/v3/aplicacion' } },
    })
    const theirs = await client.get('/v3/aplicacion').bearerToken(otherToken)
    assert.deepEqual(
      { Id: theirs.body().Id, Habilidades: theirs.body().Habilidades },
      { Id: other.id, Habilidades: [] }
    )
    const ref = await client.get('/v3/aplicacion').bearerToken(token).header('Accept', REF)
    ref.assertStatus(200)
    assert.deepEqual(ref.body(), { href: '/v3/aplicacion', title: 'Mi concesionaria' })
    ;(await client.get('/v3/aplicacion')).assertStatus(401)
  })
})

test.group('ace app:ability', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('an app gains consultas:crear and posts an inquiry, loses it and gets 403 (within 5 s)', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Grows')
    const fixture = await createAgency(caller)
    const listing = await createListing(caller, fixture)
    const post = async () =>
      (
        await client
          .post(`/v3/consultas/${fixture.agency.adminMail}`)
          .bearerToken(token)
          .json(inquiryBody(listing.externalId))
      ).status()
    // Refused, and the credential is now in this web process's memory.
    assert.equal(await post(), 403)

    const added = await ace('app:ability', String(caller.id), '--add', 'consultas:crear')
    assert.equal(added.code, 0, added.out)
    assert.include(added.out, 'consultas:crear')
    const own = await client.get('/v3/aplicacion').bearerToken(token)
    assert.deepEqual(own.body().Habilidades, ['consultas:crear'], 'read from the table at once')
    const granted = Date.now()
    assert.equal(await until(post, (status) => status === 201, CREDENTIAL_TTL_MS + 2_000), 201)
    assert.isAtMost(Date.now() - granted, CREDENTIAL_TTL_MS + 1_000)

    const removed = await ace('app:ability', String(caller.id), '--remove', 'consultas:crear')
    assert.equal(removed.code, 0, removed.out)
    const withdrawn = Date.now()
    assert.equal(await until(post, (status) => status === 403, CREDENTIAL_TTL_MS + 2_000), 403)
    assert.isAtMost(Date.now() - withdrawn, CREDENTIAL_TTL_MS + 1_000)
    assert.deepEqual((await client.get('/v3/aplicacion').bearerToken(token)).body().Habilidades, [])
  }).timeout(60_000)

  test('unknown ability, app, or flags: one line, exit 1, nothing changed', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Strict')
    for (const args of [
      [String(caller.id), '--add', 'publicaciones:borrar'],
      [String(caller.id), '--remove', 'CONSULTAS:CREAR'],
      ['2147483000', '--add', 'consultas:crear'],
      ['abc', '--add', 'consultas:crear'],
      [String(caller.id)],
      [String(caller.id), '--add', 'consultas:crear', '--remove', 'consultas:crear'],
    ]) {
      const result = await ace('app:ability', ...args)
      assert.equal(result.code, 1, args.join(' '))
      assert.lengthOf(result.out.trim().split('\n'), 1, result.out)
    }
    const unknown = await ace('app:ability', String(caller.id), '--add', 'publicaciones:borrar')
    assert.include(unknown.out, 'consultas:crear', 'names the known abilities')
    assert.deepEqual((await client.get('/v3/aplicacion').bearerToken(token)).body().Habilidades, [])
  }).timeout(60_000)
})
