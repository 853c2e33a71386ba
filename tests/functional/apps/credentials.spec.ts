/*
 * Credentials a dealer can lose safely (docs/design.md §18): listing without
 * secrets, expiry, rotation with an overlap, revocation seen by every web
 * process within the 5 s credential memory, disabling an app, the commands,
 * and authentication that writes nothing when it fails.
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { promisify, stripVTControlCharacters } from 'node:util'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { settings } from '#core/settings'
import { createCaller, forgetCredentials, issueToken } from '#tests/helpers/apps'
import { freshAddress, get, rotate } from '#tests/helpers/credentials'
import { startWebProcess } from '#tests/helpers/web_process'
import { until } from '#tests/helpers/until'

const REF = 'application/vnd.service.ref+json'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `node ace …` as an operator runs it (logging at info); rejects on a non-zero exit. */
function ace(...args: string[]) {
  return promisify(execFile)(process.execPath, ['ace', ...args], {
    cwd: app.makePath(),
    env: { ...process.env, LOG_LEVEL: 'info' },
  })
}

/** The exit code and output of a command expected to fail. */
async function aceFails(...args: string[]) {
  try {
    await ace(...args)
  } catch (error: any) {
    return { code: error.code as number, out: `${error.stdout}${error.stderr}` }
  }
  throw new Error(`ace ${args.join(' ')} succeeded`)
}

async function assertInvalidToken(assert: any, response: Response, label = '') {
  assert.equal(response.status, 401, label)
  assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="v3", error="invalid_token"')
  assert.match(response.headers.get('content-type')!, /^application\/problem\+json/)
}

const tokenRow = (id: number) => db.from('app_tokens').where('id', id).firstOrFail()
const idOf = (token: string) =>
  Number(Buffer.from(token.slice(4).split('.')[0], 'base64url').toString())

test.group('Credentials: the app lists and rotates its own', () => {
  test('GET /v3/credenciales lists the live tokens with their links, never a secret', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Lister')
    const second = await issueToken(caller.id, { name: 'integración' })
    const revoked = await issueToken(caller.id, { name: 'revocada' })
    await ace('app:revoke', String(revoked.id))

    const response = await get('/v3/credenciales', token)
    assert.equal(response.status, 200)
    const text = await response.text()
    const body = JSON.parse(text)
    assert.deepEqual(
      body._entries.map((entry: any) => [entry.Id, entry.Nombre]),
      [
        [idOf(token), 'initial'],
        [second.id, 'integración'],
      ]
    )
    const [first] = body._entries
    assert.deepEqual(Object.keys(first), ['Id', 'Nombre', 'Creado', 'UltimoUso', 'Vence', '_links'])
    assert.isNull(first.Vence)
    assert.match(first.Creado, /[+-]\d\d:\d\d$/)
    assert.deepEqual(body._links.rotar, { href: '/v3/credenciales', method: 'POST' })
    // Every self link resolves; the secret of no token appears anywhere.
    const one = await get(first._links.self.href, token)
    assert.equal(one.status, 200)
    const oneText = await one.text()
    const ref = await (await get('/v3/credenciales', token, { accept: REF })).text()
    for (const secret of [token, second.token, revoked.token].map((t) => t.split('.')[1]))
      for (const output of [text, oneText, ref]) assert.notInclude(output, secret)
    // A revoked token, another app's or an id out of range: 404.
    assert.equal((await get(`/v3/credenciales/${revoked.id}`, token)).status, 404)
    const other = await createCaller('Other')
    assert.equal((await get(`/v3/credenciales/${idOf(other.token)}`, token)).status, 404)
    assert.equal((await get('/v3/credenciales/2147483648', token)).status, 404)
  })

  test('POST rotates: a new token at once, the old one works until the overlap ends, then 401', async ({
    assert,
  }) => {
    const { token } = await createCaller('Rotator')
    const started = Date.now()
    const response = await rotate(token, { Nombre: 'nueva', AnteriorExpiraEnSegundos: 2 })
    assert.equal(response.status, 201)
    const body: any = await response.json()
    assert.deepEqual(Object.keys(body), ['Id', 'Nombre', 'Token', 'Vence', 'Anterior'])
    assert.equal(body.Nombre, 'nueva')
    assert.isNull(body.Vence)
    assert.equal(body.Anterior.Id, idOf(token))
    const expires = Date.parse(body.Anterior.Vence)
    assert.closeTo(expires - started, 2000, 1000)
    assert.match(response.headers.get('location')!, new RegExp(`/v3/credenciales/${body.Id}$`))
    assert.isNull(response.headers.get('idempotent-replayed'))

    // Before the edge both work (this process forgot its memory of the old one on rotation).
    assert.equal((await get('/v3', body.Token)).status, 200)
    assert.equal((await get('/v3', token)).status, 200)
    const row = await tokenRow(idOf(token))
    assert.equal(new Date(row.expires_at).getTime(), expires)
    // After it the old one is refused, the new one is not.
    await sleep(expires - Date.now() + 50)
    await assertInvalidToken(assert, await get('/v3', token), 'after the overlap')
    assert.equal((await get('/v3', body.Token)).status, 200)
  })

  test('two rotations with one token at once: each answers as alone, the old token ends at the earlier overlap', async ({
    assert,
  }) => {
    const { token } = await createCaller('Twice at once')
    const started = Date.now()
    const answers = await Promise.all([
      rotate(token, { AnteriorExpiraEnSegundos: 60 }),
      rotate(token, { AnteriorExpiraEnSegundos: 120 }),
    ])
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [201, 201]
    )
    const [first, second]: any[] = await Promise.all(answers.map((answer) => answer.json()))
    assert.notEqual(first.Id, second.Id)
    assert.notEqual(first.Token, second.Token)
    for (const body of [first, second]) {
      assert.equal(body.Anterior.Id, idOf(token))
      assert.equal((await get('/v3', body.Token)).status, 200)
    }
    // Whichever committed last, the old token's expiry is the earlier one (never extended).
    const row = await tokenRow(idOf(token))
    assert.closeTo(new Date(row.expires_at).getTime() - started, 60_000, 2_000)
    assert.equal((await get('/v3', token)).status, 200)
  })

  test('AnteriorExpiraEnSegundos 0 ends the old token now; an earlier expiry is never extended', async ({
    assert,
  }) => {
    const { token } = await createCaller('Rotate now')
    const now = await rotate(token, { AnteriorExpiraEnSegundos: 0 })
    assert.equal(now.status, 201)
    const fresh: any = await now.json()
    assert.isNull(fresh.Nombre)
    await assertInvalidToken(assert, await get('/v3', token))
    // A rotation with the refused token issues nothing.
    await assertInvalidToken(assert, await rotate(token, {}))

    // The new token expires nowhere; one that expires in 30 s keeps that under a 1-day overlap.
    const { app: caller } = await createCaller('Short-lived')
    const short = await issueToken(caller.id, { expiresInSeconds: 30 })
    const before = (await tokenRow(short.id)).expires_at as Date
    const rotated = await rotate(short.token, {})
    assert.equal(rotated.status, 201)
    const anterior = ((await rotated.json()) as any).Anterior
    assert.equal(Date.parse(anterior.Vence), before.getTime())
    const defaulted = await rotate(fresh.Token, {})
    const overlap = Date.parse(((await defaulted.json()) as any).Anterior.Vence) - Date.now()
    assert.closeTo(overlap, 86_400_000, 5_000)
  })

  test('hostile bodies → 400 problems keyed by the field; nothing issued', async ({ assert }) => {
    const { app: caller, token } = await createCaller('Hostile')
    const cases: Array<[unknown, string]> = [
      [{ AnteriorExpiraEnSegundos: -1 }, 'AnteriorExpiraEnSegundos'],
      [{ AnteriorExpiraEnSegundos: 604_801 }, 'AnteriorExpiraEnSegundos'],
      [{ AnteriorExpiraEnSegundos: 1.5 }, 'AnteriorExpiraEnSegundos'],
      [{ AnteriorExpiraEnSegundos: '10' }, 'AnteriorExpiraEnSegundos'],
      [{ Nombre: 'x'.repeat(101) }, 'Nombre'],
      [{ Nombre: '   ' }, 'Nombre'],
      [{ Nombre: 7 }, 'Nombre'],
    ]
    for (const [body, field] of cases) {
      const response = await rotate(token, body)
      assert.equal(response.status, 400, JSON.stringify(body))
      const problem: any = await response.json()
      assert.property(problem.Errors, field, JSON.stringify(body))
    }
    const rows = await db.from('app_tokens').where('tokenable_id', caller.id)
    assert.lengthOf(rows, 1)
    assert.isNull(rows[0].expires_at)
    // The edges themselves are accepted.
    assert.equal((await rotate(token, { AnteriorExpiraEnSegundos: 604_800 })).status, 201)
  })
})

test.group('Credentials: expiry, revocation, disabling', (group) => {
  const configuredLimit = settings.authFailuresPerMinute
  group.each.teardown(() => {
    settings.authFailuresPerMinute = configuredLimit
  })

  test('a token works before its expiry and answers 401 after it', async ({ assert }) => {
    const { app: caller } = await createCaller('Expiring')
    const { id, token } = await issueToken(caller.id, { expiresInSeconds: 2 })
    const expiresAt = ((await tokenRow(id)).expires_at as Date).getTime()
    assert.equal((await get('/v3', token)).status, 200)
    await sleep(expiresAt - Date.now() - 500)
    assert.equal((await get('/v3', token)).status, 200, 'just before the edge (remembered)')
    await sleep(expiresAt - Date.now() + 50)
    await assertInvalidToken(assert, await get('/v3', token), 'just after the edge')
    await forgetCredentials()
    await assertInvalidToken(assert, await get('/v3', token), 'read again from the database')
  })

  test('a revocation is seen by two web processes on one database within 5 s', async ({
    assert,
    cleanup,
  }) => {
    const other = await startWebProcess()
    cleanup(() => other.stop())
    const { app: caller } = await createCaller('Two processes')
    const { id, token } = await issueToken(caller.id, { name: 'filtrado' })
    const kept = await issueToken(caller.id, { name: 'sigue' })
    const status = (base: string, value: string) =>
      fetch(`${base}/v3`, { headers: { Authorization: `Bearer ${value}` } }).then((r) => r.status)
    const here = () => get('/v3', token).then((response) => response.status)
    const there = () => status(other.url, token)
    // Both processes verify the token and remember it.
    assert.equal(await here(), 200)
    assert.equal(await there(), 200)

    const { stdout } = await ace('app:revoke', String(id))
    const revokedAt = Date.now()
    assert.include(stdout, String(id))
    const [seenHere, seenThere] = await Promise.all(
      [here, there].map(async (read) => {
        await until(read, (answer) => answer === 401, 8_000)
        return Date.now() - revokedAt
      })
    )
    assert.isAtMost(seenHere, 5_300)
    assert.isAtMost(seenThere, 5_300)
    const refused = await fetch(`${other.url}/v3`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    assert.equal(
      refused.headers.get('www-authenticate'),
      'Bearer realm="v3", error="invalid_token"'
    )
    // The app's other token is untouched in both.
    assert.equal(await status(other.url, kept.token), 200)
    assert.equal((await get('/v3', kept.token)).status, 200)
  }).timeout(60_000)

  test('a disabled app answers 401 with every token; enabled again, its valid tokens work', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Disabled')
    const revoked = await issueToken(caller.id)
    await ace('app:revoke', String(revoked.id))
    assert.equal((await get('/v3', token)).status, 200)
    await ace('app:disable', String(caller.id))
    await forgetCredentials() // this process's 5 s memory, as if it had lapsed
    await assertInvalidToken(assert, await get('/v3', token), 'disabled')
    await assertInvalidToken(assert, await rotate(token, {}), 'disabled: no rotation either')
    await ace('app:enable', String(caller.id))
    await forgetCredentials()
    assert.equal((await get('/v3', token)).status, 200)
    await assertInvalidToken(assert, await get('/v3', revoked.token), 'still revoked')
  }).timeout(60_000)

  test('refused credentials write nothing and count against the address limit', async ({
    assert,
  }) => {
    settings.authFailuresPerMinute = 3
    const { app: caller, token } = await createCaller('No side effects')
    const expired = await issueToken(caller.id, { expiresInSeconds: 1 })
    const revoked = await issueToken(caller.id)
    await ace('app:revoke', String(revoked.id))
    await sleep(1_100)
    await forgetCredentials()
    const before = await db.from('app_tokens').where('tokenable_id', caller.id).orderBy('id')
    const address = freshAddress()
    await assertInvalidToken(assert, await get('/v3', expired.token, { address }))
    await assertInvalidToken(assert, await get('/v3', revoked.token, { address }))
    await assertInvalidToken(assert, await get('/v3', revoked.token, { address }))
    assert.equal((await get('/v3', token, { address })).status, 429, 'the limit is spent')
    const after = await db.from('app_tokens').where('tokenable_id', caller.id).orderBy('id')
    assert.deepEqual(after, before)
  })

  test('UltimoUso: recorded by a verified use, not rewritten within the minute', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Last use')
    const id = idOf(token)
    assert.isNull((await tokenRow(id)).last_used_at)
    assert.equal((await get('/v3', token)).status, 200)
    const first = (await tokenRow(id)).last_used_at as Date
    assert.isNotNull(first)
    await forgetCredentials()
    assert.equal((await get('/v3', token)).status, 200)
    assert.equal(((await tokenRow(id)).last_used_at as Date).getTime(), first.getTime())
    // A minute later the next verification records it again.
    await db
      .from('app_tokens')
      .where('id', id)
      .update({ last_used_at: new Date(first.getTime() - 61_000) })
    await forgetCredentials()
    assert.equal((await get('/v3', token)).status, 200)
    assert.isAbove(((await tokenRow(id)).last_used_at as Date).getTime(), first.getTime() - 1_000)
    const listed: any = await (await get('/v3/credenciales', token)).json()
    assert.isNotNull(listed._entries[0].UltimoUso)
    assert.equal(caller.id, (await tokenRow(id)).tokenable_id)
  })
})

test.group('Credentials: the operator commands', () => {
  test('app:token --name --expires-in --json, app:tokens --json, app:revoke --app --all: never a secret listed', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Operated')
    const issued = await ace(
      'app:token',
      String(caller.id),
      '--name',
      'replacement',
      '--expires-in',
      '90d',
      '--json'
    )
    const created = JSON.parse(issued.stdout)
    assert.equal(issued.stdout.trim(), JSON.stringify(created))
    // The audit line goes to stderr, with ids only.
    const audit = issued.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'app token issued')
    assert.deepInclude(audit, { appId: caller.id, tokenId: created.Id })
    assert.notInclude(issued.stderr, created.Token.split('.')[1])
    assert.deepEqual(Object.keys(created), ['Id', 'AppId', 'Nombre', 'Token', 'Vence'])
    assert.equal(created.AppId, caller.id)
    assert.equal(created.Nombre, 'replacement')
    assert.closeTo(Date.parse(created.Vence) - Date.now(), 90 * 86_400_000, 60_000)
    assert.equal((await get('/v3', created.Token)).status, 200)

    const listed = await ace('app:tokens', String(caller.id), '--json')
    const tokens = JSON.parse(listed.stdout)
    assert.deepEqual(Object.keys(tokens[0]), [
      'Id',
      'Nombre',
      'Creado',
      'UltimoUso',
      'Vence',
      'Revocado',
    ])
    assert.deepEqual(
      tokens.map((t: any) => [t.Id, t.Nombre, t.Revocado]),
      [
        [idOf(token), 'initial', null],
        [created.Id, 'replacement', null],
      ]
    )
    const table = await ace('app:tokens', String(caller.id))
    for (const output of [listed.stdout, table.stdout])
      for (const secret of [token, created.Token].map((t) => t.split('.')[1]))
        assert.notInclude(output, secret)
    assert.include(table.stdout, 'replacement')

    const all = await ace('app:revoke', '--app', String(caller.id), '--all')
    assert.include(all.stdout, `${idOf(token)}, ${created.Id}`)
    const after = JSON.parse((await ace('app:tokens', String(caller.id), '--json')).stdout)
    assert.isTrue(after.every((t: any) => typeof t.Revocado === 'string'))
    await forgetCredentials()
    await assertInvalidToken(assert, await get('/v3', token))
    await assertInvalidToken(assert, await get('/v3', created.Token))
  }).timeout(60_000)

  test('app:create --json logging at info: stdout is still exactly one JSON object', async ({
    assert,
  }) => {
    const { stdout, stderr } = await ace('app:create', 'Audited', '--json')
    const created = JSON.parse(stdout)
    assert.equal(stdout.trim(), JSON.stringify(created))
    assert.include(stderr, '"app created, token issued"')
    assert.notInclude(stderr, created.Token.split('.')[1])
  }).timeout(30_000)

  test('bad input: one error line and a non-zero exit', async ({ assert }) => {
    const { app: caller } = await createCaller('Bad input')
    const cases: string[][] = [
      ['app:token', String(caller.id), '--expires-in', '3w'],
      ['app:token', String(caller.id), '--expires-in', '0s'],
      ['app:token', '2147483647'],
      ['app:tokens', 'abc'],
      ['app:tokens', '2147483647'],
      ['app:revoke', '2147483647'],
      ['app:revoke', '--app', String(caller.id)],
      ['app:revoke', '1', '--app', String(caller.id), '--all'],
      ['app:disable', '2147483647'],
      ['app:enable', '0'],
    ]
    for (const args of cases) {
      const { code, out } = await aceFails(...args)
      assert.notEqual(code, 0, args.join(' '))
      const lines = out.split('\n').filter((line) => stripVTControlCharacters(line).trim())
      assert.lengthOf(lines, 1, `${args.join(' ')}: ${out}`)
    }
  }).timeout(90_000)
})
