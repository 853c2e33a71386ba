/*
 * Credentials within their bounds (docs/design.md §25): a rotated token never
 * outlives the caller's own expiry, an app holds at most 20 live tokens, a
 * revocation racing rotations leaves nothing alive, the 201 that carries a
 * secret is not cached, and GET /v3/credenciales is paged.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import RevokeTokens from '#apps/services/revoke_tokens'
import { createCaller, issueToken } from '#tests/helpers/apps'
import { ace, aceFails, get, rotate } from '#tests/helpers/credentials'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The app's tokens that authenticate now, counted in the database. */
async function liveTokens(appId: number) {
  const [{ count }] = await db
    .from('app_tokens')
    .where('tokenable_id', appId)
    .whereNull('revoked_at')
    .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', new Date()))
    .count('* as count')
  return Number(count)
}

const expiryOf = async (id: number) =>
  (await db.from('app_tokens').where('id', id).firstOrFail()).expires_at as Date | null

test.group('Credentials within their bounds: expiry and the 20-token limit', () => {
  test('a token that expires in 3 s rotates into a token that expires with it (Vence), then both are refused', async ({
    assert,
  }) => {
    const { app: caller } = await createCaller('Short-lived rotation')
    const short = await issueToken(caller.id, { expiresInSeconds: 3 })
    const expires = (await expiryOf(short.id))!.getTime()

    const response = await rotate(short.token, { Nombre: 'sucesor' })
    assert.equal(response.status, 201)
    const body: any = await response.json()
    // The new token's Vence is the caller's own expiry, to the millisecond; the default day of
    // overlap does not stretch the old one either.
    assert.equal(Date.parse(body.Vence), expires)
    assert.equal((await expiryOf(body.Id))!.getTime(), expires)
    assert.equal(Date.parse(body.Anterior.Vence), expires)
    assert.equal((await get('/v3', body.Token)).status, 200, 'before the edge')

    await sleep(expires - Date.now() + 100)
    assert.equal((await get('/v3', body.Token)).status, 401, 'the rotated token, after the edge')
    assert.equal((await get('/v3', short.token)).status, 401, 'the caller, after the edge')
    assert.equal((await rotate(body.Token)).status, 401, 'nor can it rotate once more')

    // A caller without expiry still mints a token without one.
    const { token } = await createCaller('Long-lived rotation')
    const forever: any = await (await rotate(token)).json()
    assert.isNull(forever.Vence)
  }).timeout(20_000)

  test('the 201 that carries the secret has Cache-Control: no-store', async ({ assert }) => {
    const { token } = await createCaller('No store')
    const response = await rotate(token)
    assert.equal(response.status, 201)
    assert.equal(response.headers.get('cache-control'), 'no-store')
    assert.match(((await response.json()) as any).Token, /^dla_/)
  })

  test('30 rotations from one token: 19 issued (20 live tokens), the 21st live token refused 409; 0 overlap at the cap passes', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Rotation cap')
    const statuses: number[] = []
    let refusal: any
    for (let i = 0; i < 30; i++) {
      const response = await rotate(token)
      statuses.push(response.status)
      if (response.status === 409)
        refusal ??= { headers: response.headers, body: await response.json() }
      else await response.body?.cancel()
      if (i === 18) assert.equal(await liveTokens(caller.id), 20, 'after the 19th rotation')
    }
    assert.deepEqual(statuses, [...Array(19).fill(201), ...Array(11).fill(409)])
    assert.match(refusal.headers.get('content-type'), /^application\/problem\+json/)
    assert.equal(refusal.body.Status, 409)
    assert.include(refusal.body.Detail, '20 tokens vigentes')
    assert.property(refusal.body.Errors, '_')
    assert.equal(await liveTokens(caller.id), 20, 'the refusals issued nothing')

    // At the cap, a rotation that ends the calling token now keeps 20 live tokens: allowed.
    const swap = await rotate(token, { AnteriorExpiraEnSegundos: 0 })
    assert.equal(swap.status, 201)
    const swapped: any = await swap.json()
    assert.equal(await liveTokens(caller.id), 20)
    // And with that new token, the cap still holds.
    assert.equal((await rotate(swapped.Token)).status, 409)
  }).timeout(60_000)

  test('at the cap 16 rotations at once with AnteriorExpiraEnSegundos 0 each from its own token: all 201 and 20 live tokens', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Swaps at the cap')
    const tokens = [token]
    for (let i = 0; i < 19; i++) tokens.push((await issueToken(caller.id)).token)
    assert.equal(await liveTokens(caller.id), 20)
    // Each rotation ends its caller as it issues a token: the count never passes 20, whatever
    // order the ten are served in (a rotation reads the clock after the locks it waited for).
    const responses = await Promise.all(
      tokens.slice(0, 16).map((each) => rotate(each, { AnteriorExpiraEnSegundos: 0 }))
    )
    const statuses = responses.map((response) => response.status)
    await Promise.all(responses.map((response) => response.body?.cancel()))
    assert.deepEqual(statuses, Array(16).fill(201))
    assert.equal(await liveTokens(caller.id), 20)
  }).timeout(60_000)

  test('30 rotations at once from one token: exactly 19 issued, 20 live tokens', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Rotation cap at once')
    const responses = await Promise.all(Array.from({ length: 30 }, () => rotate(token)))
    const statuses = responses.map((response) => response.status)
    await Promise.all(responses.map((response) => response.body?.cancel()))
    assert.equal(statuses.filter((status) => status === 201).length, 19, String(statuses))
    assert.equal(statuses.filter((status) => status === 409).length, 11, String(statuses))
    assert.equal(await liveTokens(caller.id), 20)
  }).timeout(60_000)

  test('ace app:token: the 20th live token issued, the 21st refused in one line with a non-zero exit', async ({
    assert,
  }) => {
    const { app: caller } = await createCaller('Command cap')
    // 1 + 18 = 19 live tokens, and two that no longer count: one revoked, one expired.
    for (let i = 0; i < 18; i++) await issueToken(caller.id)
    const revoked = await issueToken(caller.id)
    await db.from('app_tokens').where('id', revoked.id).update({ revoked_at: new Date() })
    await issueToken(caller.id, { expiresInSeconds: 1 })
    await sleep(1_100)
    assert.equal(await liveTokens(caller.id), 19)

    const issued = await ace('app:token', String(caller.id), '--json')
    assert.match(JSON.parse(issued.stdout).Token, /^dla_/)
    assert.equal(await liveTokens(caller.id), 20)

    const { code, lines } = await aceFails('app:token', String(caller.id))
    assert.notEqual(code, 0)
    assert.lengthOf(lines, 1, lines.join('\n'))
    assert.include(lines[0], '20 live tokens')
    assert.equal(await liveTokens(caller.id), 20)
  }).timeout(60_000)
})

test.group('Credentials within their bounds: revocation racing rotations', () => {
  test('app:revoke --app N --all racing 8 rotation loops, 20 times: 0 live tokens every time', async ({
    assert,
  }) => {
    const leftAlive: number[] = []
    let rotations = 0
    const revoker = await app.container.make(RevokeTokens)
    for (let round = 0; round < 20; round++) {
      const { app: caller, token } = await createCaller(`Race ${round}`)
      const starts = [token]
      for (let i = 0; i < 7; i++) starts.push((await issueToken(caller.id)).token)
      let revokedAt = Number.POSITIVE_INFINITY
      // Each loop rotates with the token it last got (the old one ends at once) until it is refused;
      // a token minted past the revocation would keep its loop going: it stops 1.5 s after.
      const loops = starts.map(async (start) => {
        let current = start
        while (Date.now() < revokedAt + 1_500) {
          const response = await rotate(current, { AnteriorExpiraEnSegundos: 0 })
          if (response.status !== 201) {
            await response.body?.cancel()
            if (response.status === 401) return
            continue
          }
          rotations++
          current = ((await response.json()) as any).Token
        }
      })
      await sleep(100)
      // The first round runs the operator's command itself; the others run the action it calls
      // (RevokeTokens, its own connection and transaction), which spares 19 process starts.
      if (round === 0) await ace('app:revoke', '--app', String(caller.id), '--all')
      else assert.isTrue((await revoker.execute({ appId: caller.id })).ok)
      revokedAt = Date.now()
      await Promise.all(loops)
      leftAlive.push(await liveTokens(caller.id))
    }
    console.log(
      `  revoke --all racing 8 rotation loops: live tokens left per round ${leftAlive.join(',')} (${rotations} rotations)`
    )
    assert.deepEqual(leftAlive, Array(20).fill(0))
  }).timeout(300_000)
})

test.group('Credentials within their bounds: GET /v3/credenciales is paged', () => {
  test('Total exact, 100 a page, page 2 holds the rest, links between them; pagina beyond 99 → 400', async ({
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Paged')
    // An app that gathered 150 live tokens before the limit existed (written as such: the limit
    // forbids issuing them now), plus a revoked and an expired one that the list leaves out.
    const now = new Date()
    const rows = Array.from({ length: 152 }, (_, i) => ({
      tokenable_id: caller.id,
      type: 'app_token',
      name: `t${i}`,
      hash: `legacy-${caller.id}-${i}`,
      abilities: JSON.stringify(['*']),
      created_at: now,
      updated_at: now,
      revoked_at: i === 150 ? now : null,
      expires_at: i === 151 ? new Date(now.getTime() - 1_000) : null,
    }))
    await db.table('app_tokens').multiInsert(rows)
    assert.equal(await liveTokens(caller.id), 151)

    const first: any = await (await get('/v3/credenciales', token)).json()
    assert.equal(first.Total, 151)
    assert.equal(first.Pagina, 1)
    assert.equal(first.PerPagina, 100)
    assert.lengthOf(first._entries, 100)
    assert.equal(first._links.next.href, '/v3/credenciales?pagina=2')
    assert.isUndefined(first._links.prev)
    assert.deepEqual(first._links.rotar, { href: '/v3/credenciales', method: 'POST' })

    const second: any = await (await get(first._links.next.href, token)).json()
    assert.equal(second.Total, 151)
    assert.equal(second.Pagina, 2)
    assert.lengthOf(second._entries, 51)
    assert.isUndefined(second._links.next)
    assert.equal(second._links.prev.href, '/v3/credenciales?pagina=1')
    // Oldest first, each live token once, over both pages.
    const ids = [...first._entries, ...second._entries].map((entry: any) => entry.Id)
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b)
    )
    assert.equal(new Set(ids).size, 151)

    const empty: any = await (await get('/v3/credenciales?pagina=3', token)).json()
    assert.deepEqual([empty.Total, empty._entries.length], [151, 0])
    for (const bad of ['0', '100', '1.5', 'x']) {
      const response = await get(`/v3/credenciales?pagina=${bad}`, token)
      assert.equal(response.status, 400, bad)
      assert.property(((await response.json()) as any).Errors, 'pagina', bad)
    }
  })
})
