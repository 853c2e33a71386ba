/*
 * The credential actions alone, over hand-rolled stores (no PostgreSQL):
 * authentication's refusals and its once-a-minute UltimoUso, rotation's
 * overlap, revocation, disabling, and the audit lines they log (ids only).
 */
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import type { Logger } from '@adonisjs/core/logger'
import type { Tx } from '#core/database/unit_of_work'
import type { UnitOfWork } from '#core/database/unit_of_work'
import type AppStore from '#apps/stores/app_store'
import type { AppRow } from '#apps/stores/app_store'
import type { CredentialRow, NewToken, TokenRow } from '#apps/stores/token_store'
import type TokenStore from '#apps/stores/token_store'
import AuthenticateApp from '#apps/services/authenticate_app'
import { CredentialMemory } from '#apps/services/credential_memory'
import IssueToken from '#apps/services/issue_token'
import RotateToken from '#apps/services/rotate_token'
import RevokeTokens from '#apps/services/revoke_tokens'
import SetAppEnabled from '#apps/services/set_app_enabled'
import SetAppAbility from '#apps/services/set_app_ability'
import ReadApplication from '#apps/services/read_application'
import { durationSeconds } from '#apps/services/token_format'
import { isLive } from '#apps/services/token_reader'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'

const T0 = DateTime.fromISO('2026-06-01T12:00:00.000Z')

class FakeAppStore implements AppStore {
  apps: AppRow[] = [
    { id: 1, name: 'Dealer', abilities: [], createdAt: T0, disabledAt: null },
    { id: 2, name: 'Other', abilities: [], createdAt: T0, disabledAt: null },
  ]
  writes = 0
  /** Every row lock taken, in order (`app:1`, `token:3`), shared with the token store. */
  locks: string[] = []

  async lock(id: number, tx: Tx) {
    assertTransaction(tx)
    this.locks.push(`app:${id}`)
    return this.find(id)
  }

  async create(fields: Pick<AppRow, 'name' | 'abilities'>) {
    const app = { id: this.apps.length + 1, createdAt: T0, disabledAt: null, ...fields }
    this.apps.push(app)
    return app
  }

  async find(id: number) {
    return this.apps.find((app) => app.id === id) ?? null
  }

  async first() {
    return this.apps[0] ?? null
  }

  async setDisabledAt(id: number, at: DateTime | null) {
    const app = await this.find(id)
    if (!app) return null
    this.writes++
    app.disabledAt = at
    return app
  }

  async setAbilities(id: number, abilities: AppRow['abilities']) {
    const app = await this.find(id)
    if (!app) return null
    this.writes++
    app.abilities = abilities
    return app
  }
}

type Stored = CredentialRow & { txs: Array<Tx | undefined> }

class FakeTokenStore implements TokenStore {
  rows: Stored[] = []
  touches: Array<{ id: number; at: DateTime }> = []
  apps: FakeAppStore

  constructor(apps: FakeAppStore) {
    this.apps = apps
  }

  #listed(row: Stored): TokenRow {
    const { hash: _h, abilities: _a, appDisabledAt: _d, txs: _t, ...token } = row
    return token
  }

  async insert(token: NewToken, tx?: Tx) {
    const row: Stored = {
      id: this.rows.length + 1,
      appId: token.appId,
      name: token.name,
      hash: token.hash,
      createdAt: T0,
      lastUsedAt: null,
      expiresAt: token.expiresAt,
      revokedAt: null,
      abilities: [],
      appDisabledAt: null,
      txs: [tx],
    }
    this.rows.push(row)
    return this.#listed(row)
  }

  async credential(id: number, tx?: Tx) {
    const row = this.rows.find((one) => one.id === id)
    if (!row) return null
    row.txs.push(tx)
    const app = await this.apps.find(row.appId)
    return { ...this.#listed(row), hash: row.hash, abilities: [], appDisabledAt: app!.disabledAt }
  }

  async find(id: number) {
    const row = this.rows.find((one) => one.id === id)
    return row ? this.#listed(row) : null
  }

  async lock(id: number, tx: Tx) {
    assertTransaction(tx)
    this.apps.locks.push(`token:${id}`)
    return this.find(id)
  }

  async countLive(appId: number, now: DateTime, tx?: Tx) {
    assertTransaction(tx)
    return this.rows.filter((row) => row.appId === appId && isLive(this.#listed(row), now)).length
  }

  async livePage(appId: number, now: DateTime, page: { page: number; perPage: number }) {
    const live = this.rows.filter((row) => row.appId === appId && isLive(this.#listed(row), now))
    const start = (page.page - 1) * page.perPage
    return {
      rows: live.slice(start, start + page.perPage).map((row) => this.#listed(row)),
      total: live.length,
    }
  }

  async ofApp(appId: number) {
    return this.rows.filter((row) => row.appId === appId).map((row) => this.#listed(row))
  }

  async touch(id: number, at: DateTime) {
    this.touches.push({ id, at })
    this.rows.find((row) => row.id === id)!.lastUsedAt = at
  }

  async revoke(id: number, at: DateTime) {
    const row = this.rows.find((one) => one.id === id)
    if (!row) return null
    row.revokedAt ??= at
    return this.#listed(row)
  }

  async revokeAllOfApp(appId: number, at: DateTime, tx?: Tx) {
    assertTransaction(tx)
    const live = this.rows.filter((row) => row.appId === appId && !row.revokedAt)
    for (const row of live) row.revokedAt = at
    return live.map((row) => row.id)
  }

  async expireBy(id: number, at: DateTime, tx?: Tx) {
    const row = this.rows.find((one) => one.id === id)
    if (!row) return null
    row.txs.push(tx)
    if (!row.expiresAt || row.expiresAt > at) row.expiresAt = at
    return this.#listed(row)
  }
}

/** The locking statements and the count only mean something inside the action's unit of work. */
function assertTransaction(tx: Tx | undefined) {
  if (tx !== FAKE_TX) throw new Error('expected the unit of work’s transaction')
}

class FakeLogger {
  lines: Array<{ fields: Record<string, unknown>; message: string }> = []

  info(fields: Record<string, unknown>, message: string) {
    this.lines.push({ fields, message })
  }
}

function world() {
  const apps = new FakeAppStore()
  const tokens = new FakeTokenStore(apps)
  const memory = new CredentialMemory()
  const logger = new FakeLogger()
  const unitOfWork = new FakeUnitOfWork()
  const log = logger as unknown as Logger
  const uow = unitOfWork as unknown as UnitOfWork
  return {
    apps,
    tokens,
    memory,
    logger,
    unitOfWork,
    issue: new IssueToken(apps, tokens, uow, log),
    authenticate: new AuthenticateApp(memory, tokens),
    rotate: new RotateToken(apps, tokens, uow, memory, log),
    revoke: new RevokeTokens(apps, tokens, uow, memory, log),
    switcher: new SetAppEnabled(apps, memory, log),
    abilities: new SetAppAbility(apps, memory, log),
    reader: new ReadApplication(apps),
  }
}

async function issued(w: ReturnType<typeof world>, appId = 1, expiresInSeconds?: number) {
  const result = await w.issue.execute(appId, { name: 'n', expiresInSeconds }, T0)
  if (!result.ok) throw new Error(result.reason)
  return result.value
}

/** Every field a log line carries is an id or an instant: never a token or a hash. */
function assertIdsOnly(assert: any, w: ReturnType<typeof world>) {
  for (const line of w.logger.lines)
    for (const [key, value] of Object.entries(line.fields)) {
      assert.match(key, /(Id|Ids|ExpiresAt)$/, line.message)
      assert.notMatch(String(value), /dla_|[0-9a-f]{64}/, line.message)
    }
}

test.group('AuthenticateApp', () => {
  test('a token authenticates until its expiry, not at it (both sides of the edge)', async ({
    assert,
  }) => {
    const w = world()
    const { row, token } = await issued(w, 1, 60)
    const edge = T0.plus({ seconds: 60 })
    const before = await w.authenticate.execute(token, edge.minus({ milliseconds: 1 }))
    assert.deepEqual(before?.caller, { id: 1, abilities: [] })
    assert.equal(before?.tokenId, row.id)
    // Remembered, yet refused at the edge; and read afresh, refused too.
    assert.isNull(await w.authenticate.execute(token, edge))
    w.memory.forget()
    assert.isNull(await w.authenticate.execute(token, edge))
    assert.isNotNull(await w.authenticate.execute(token, edge.minus({ milliseconds: 1 })))
  })

  test('revoked, disabled, wrong or malformed: refused, and nothing written', async ({
    assert,
  }) => {
    const w = world()
    const revoked = await issued(w)
    const disabled = await issued(w, 2)
    const good = await issued(w)
    await w.tokens.revoke(revoked.row.id, T0)
    w.apps.apps[1].disabledAt = T0
    const wrong = good.token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
    for (const value of [revoked.token, disabled.token, wrong, 'dla_x', 'dla_MA.eA'])
      assert.isNull(await w.authenticate.execute(value, T0), value)
    assert.deepEqual(w.tokens.touches, [])
    // The same app's valid token passes; a re-enabled app's token passes again.
    assert.isNotNull(await w.authenticate.execute(good.token, T0))
    w.apps.apps[1].disabledAt = null
    assert.isNotNull(await w.authenticate.execute(disabled.token, T0))
  })

  test('UltimoUso: written on the first use, again only once a minute has passed', async ({
    assert,
  }) => {
    const w = world()
    const { row, token } = await issued(w)
    await w.authenticate.execute(token, T0)
    assert.deepEqual(
      w.tokens.touches.map((touch) => touch.at.toMillis()),
      [T0.toMillis()]
    )
    // Remembered: no read at all. Read again (memory lapsed) within the minute: no write.
    await w.authenticate.execute(token, T0.plus({ seconds: 1 }))
    w.memory.forget()
    await w.authenticate.execute(token, T0.plus({ milliseconds: 59_999 }))
    assert.lengthOf(w.tokens.touches, 1)
    w.memory.forget()
    await w.authenticate.execute(token, T0.plus({ seconds: 60 }))
    assert.lengthOf(w.tokens.touches, 2)
    assert.equal(
      w.tokens.rows[row.id - 1].lastUsedAt?.toMillis(),
      T0.plus({ seconds: 60 }).toMillis()
    )
  })
})

test.group('RotateToken', () => {
  test('a new token; the calling one expires after the overlap, in one unit of work', async ({
    assert,
  }) => {
    const w = world()
    const { row, token } = await issued(w)
    w.unitOfWork.committed = 0
    const rotated = await w.rotate.execute(
      { appId: 1, tokenId: row.id },
      { name: 'nueva', overlapSeconds: 30 },
      T0
    )
    assert.isTrue(rotated.ok)
    if (!rotated.ok) return
    assert.equal(rotated.value.row.name, 'nueva')
    assert.isNull(rotated.value.row.expiresAt)
    assert.equal(rotated.value.previous.expiresAt?.toMillis(), T0.plus({ seconds: 30 }).toMillis())
    assert.equal(w.unitOfWork.committed, 1)
    assert.isTrue(w.tokens.rows.every((one) => one.txs.includes(FAKE_TX)))
    // The old token: accepted before the overlap ends, refused at its end.
    assert.isNotNull(await w.authenticate.execute(token, T0.plus({ seconds: 29 })))
    assert.isNull(await w.authenticate.execute(token, T0.plus({ seconds: 30 })))
    assert.isNotNull(await w.authenticate.execute(rotated.value.token, T0.plus({ days: 400 })))
    assert.deepEqual(w.logger.lines.at(-1)?.fields, {
      appId: 1,
      tokenId: rotated.value.row.id,
      tokenExpiresAt: null,
      previousTokenId: row.id,
      previousExpiresAt: T0.plus({ seconds: 30 }).toISO(),
    })
    assertIdsOnly(assert, w)
  })

  test('never extends an earlier expiry; default overlap one day; 0 ends it now', async ({
    assert,
  }) => {
    const w = world()
    const short = await issued(w, 1, 10)
    const kept = await w.rotate.execute({ appId: 1, tokenId: short.row.id }, {}, T0)
    assert.equal(
      kept.ok && kept.value.previous.expiresAt?.toMillis(),
      T0.plus({ seconds: 10 }).toMillis()
    )
    const long = await issued(w)
    const day = await w.rotate.execute({ appId: 1, tokenId: long.row.id }, {}, T0)
    assert.equal(
      day.ok && day.value.previous.expiresAt?.toMillis(),
      T0.plus({ days: 1 }).toMillis()
    )
    const other = await issued(w)
    const now = await w.rotate.execute(
      { appId: 1, tokenId: other.row.id },
      { overlapSeconds: 0 },
      T0
    )
    assert.equal(now.ok && now.value.previous.expiresAt?.toMillis(), T0.toMillis())
    assert.isNull(await w.authenticate.execute(other.token, T0))
  })

  test('a calling token revoked, expired or disabled meanwhile issues nothing', async ({
    assert,
  }) => {
    const w = world()
    const revoked = await issued(w)
    await w.tokens.revoke(revoked.row.id, T0)
    const expired = await issued(w, 1, 5)
    const disabled = await issued(w, 2)
    w.apps.apps[1].disabledAt = T0
    const count = w.tokens.rows.length
    for (const [caller, at] of [
      [{ appId: 1, tokenId: revoked.row.id }, T0],
      [{ appId: 1, tokenId: expired.row.id }, T0.plus({ seconds: 5 })],
      [{ appId: 2, tokenId: disabled.row.id }, T0],
      [{ appId: 2, tokenId: expired.row.id }, T0],
    ] as const) {
      const result = await w.rotate.execute(caller, {}, at)
      assert.deepEqual(result, { ok: false, reason: 'credential_invalid' })
    }
    assert.lengthOf(w.tokens.rows, count)
    // One second before its expiry the short-lived token still rotates.
    assert.isTrue(
      (await w.rotate.execute({ appId: 1, tokenId: expired.row.id }, {}, T0.plus({ seconds: 4 })))
        .ok
    )
  })
})

test.group('RotateToken and IssueToken: bounds (docs/design.md §25)', () => {
  test('the new token expires with the calling one, whatever the overlap; none when the caller has none', async ({
    assert,
  }) => {
    const w = world()
    const short = await issued(w, 1, 10)
    const edge = T0.plus({ seconds: 10 })
    const rotated = await w.rotate.execute({ appId: 1, tokenId: short.row.id }, {}, T0)
    assert.isTrue(rotated.ok)
    if (!rotated.ok) return
    assert.equal(rotated.value.row.expiresAt?.toMillis(), edge.toMillis())
    assert.equal(rotated.value.previous.expiresAt?.toMillis(), edge.toMillis())
    assert.isNotNull(
      await w.authenticate.execute(rotated.value.token, edge.minus({ milliseconds: 1 }))
    )
    assert.isNull(await w.authenticate.execute(rotated.value.token, edge))
    // A shorter overlap ends the caller sooner; the new token still lasts the caller's own expiry.
    const other = await issued(w, 1, 10)
    const soon = await w.rotate.execute(
      { appId: 1, tokenId: other.row.id },
      { overlapSeconds: 3 },
      T0
    )
    assert.equal(soon.ok && soon.value.row.expiresAt?.toMillis(), edge.toMillis())
    assert.equal(
      soon.ok && soon.value.previous.expiresAt?.toMillis(),
      T0.plus({ seconds: 3 }).toMillis()
    )
    const forever = await issued(w)
    const kept = await w.rotate.execute({ appId: 1, tokenId: forever.row.id }, {}, T0)
    assert.isTrue(kept.ok && kept.value.row.expiresAt === null)
    assert.equal(w.logger.lines.at(-1)?.fields.tokenExpiresAt, null)
    assertIdsOnly(assert, w)
  })

  test('at most 20 live tokens: the 20th issued, the 21st refused and nothing written', async ({
    assert,
  }) => {
    const w = world()
    const caller = await issued(w)
    // Neither a revoked nor an expired token counts.
    await w.tokens.revoke((await issued(w)).row.id, T0)
    await issued(w, 1, 5)
    const later = T0.plus({ seconds: 5 })
    for (let i = 0; i < 18; i++) assert.isTrue((await w.issue.execute(1, {}, later)).ok)
    assert.equal(await w.tokens.countLive(1, later, FAKE_TX), 19)
    const twentieth = await w.rotate.execute({ appId: 1, tokenId: caller.row.id }, {}, later)
    assert.isTrue(twentieth.ok, 'the 20th live token')
    const rows = w.tokens.rows.length
    const lines = w.logger.lines.length
    assert.deepEqual(await w.rotate.execute({ appId: 1, tokenId: caller.row.id }, {}, later), {
      ok: false,
      reason: 'token_limit',
    })
    assert.deepEqual(await w.issue.execute(1, {}, later), { ok: false, reason: 'token_limit' })
    assert.lengthOf(w.tokens.rows, rows)
    assert.lengthOf(w.logger.lines, lines)
    assert.equal(
      w.tokens.rows.find((row) => row.id === caller.row.id)!.expiresAt?.toMillis(),
      later.plus({ days: 1 }).toMillis(),
      'the refused rotation left the caller as the 20th left it'
    )
    // Ending the caller now keeps the app at 20: allowed. Another app is not counted.
    const swap = await w.rotate.execute(
      { appId: 1, tokenId: caller.row.id },
      { overlapSeconds: 0 },
      later
    )
    assert.isTrue(swap.ok)
    assert.equal(await w.tokens.countLive(1, later, FAKE_TX), 20)
    assert.isTrue((await w.issue.execute(2, {}, later)).ok)
  })

  test('rotation locks the app, then the calling token, in its unit of work; revoking all locks the app', async ({
    assert,
  }) => {
    const w = world()
    const { row } = await issued(w)
    w.apps.locks.length = 0
    await w.rotate.execute({ appId: 1, tokenId: row.id }, {}, T0)
    assert.deepEqual(w.apps.locks, ['app:1', `token:${row.id}`])
    w.apps.locks.length = 0
    await w.revoke.execute({ appId: 1 }, T0)
    assert.deepEqual(w.apps.locks, ['app:1'])
    // Found revoked once locked (a revocation committed first): refused, nothing issued.
    const count = w.tokens.rows.length
    assert.deepEqual(await w.rotate.execute({ appId: 1, tokenId: row.id }, {}, T0), {
      ok: false,
      reason: 'credential_invalid',
    })
    assert.lengthOf(w.tokens.rows, count)
  })
})

test.group('RevokeTokens and SetAppEnabled', () => {
  test('revoking one token: refused at once in this process, idempotent, unknown id fails', async ({
    assert,
  }) => {
    const w = world()
    const { row, token } = await issued(w)
    const other = await issued(w)
    assert.isNotNull(await w.authenticate.execute(token, T0))
    assert.deepEqual(await w.revoke.execute({ tokenId: row.id }, T0), {
      ok: true,
      value: { revoked: [row.id] },
    })
    assert.isNull(await w.authenticate.execute(token, T0))
    assert.isNotNull(await w.authenticate.execute(other.token, T0))
    await w.revoke.execute({ tokenId: row.id }, T0.plus({ hours: 1 }))
    assert.equal(w.tokens.rows[row.id - 1].revokedAt?.toMillis(), T0.toMillis())
    assert.deepEqual(await w.revoke.execute({ tokenId: 99 }, T0), {
      ok: false,
      reason: 'token_not_found',
    })
    assertIdsOnly(assert, w)
  })

  test('revoking all of an app: only its live tokens; an unknown app fails', async ({ assert }) => {
    const w = world()
    const a = await issued(w)
    const b = await issued(w)
    const foreign = await issued(w, 2)
    await w.revoke.execute({ tokenId: a.row.id }, T0)
    const all = await w.revoke.execute({ appId: 1 }, T0)
    assert.deepEqual(all, { ok: true, value: { revoked: [b.row.id] } })
    assert.isNotNull(await w.authenticate.execute(foreign.token, T0))
    assert.deepEqual(await w.revoke.execute({ appId: 9 }, T0), {
      ok: false,
      reason: 'app_not_found',
    })
    assert.deepEqual(w.logger.lines.at(-1), {
      fields: { appId: 1, tokenIds: [b.row.id] },
      message: 'app tokens revoked',
    })
  })

  test('disable and enable: tokens refused then accepted; repeated calls write nothing', async ({
    assert,
  }) => {
    const w = world()
    const { token } = await issued(w)
    assert.isNotNull(await w.authenticate.execute(token, T0))
    assert.isTrue((await w.switcher.execute(1, false, T0)).ok)
    assert.isNull(await w.authenticate.execute(token, T0), 'the memory was forgotten')
    await w.switcher.execute(1, false, T0.plus({ hours: 1 }))
    assert.equal(w.apps.apps[0].disabledAt?.toMillis(), T0.toMillis())
    assert.equal(w.apps.writes, 1)
    assert.isTrue((await w.switcher.execute(1, true, T0)).ok)
    assert.isNotNull(await w.authenticate.execute(token, T0))
    await w.switcher.execute(1, true, T0)
    assert.equal(w.apps.writes, 2)
    assert.deepEqual(await w.switcher.execute(9, false, T0), { ok: false, reason: 'app_not_found' })
    assert.deepEqual(
      w.logger.lines.slice(-2).map((line) => [line.message, line.fields]),
      [
        ['app disabled', { appId: 1 }],
        ['app enabled', { appId: 1 }],
      ]
    )
  })

  test('issuing: an unknown app fails and logs nothing; the secret is never stored', async ({
    assert,
  }) => {
    const w = world()
    assert.deepEqual(await w.issue.execute(9, {}, T0), { ok: false, reason: 'app_not_found' })
    assert.lengthOf(w.logger.lines, 0)
    const { row, token } = await issued(w, 1, 90 * 86_400)
    assert.equal(row.expiresAt?.toMillis(), T0.plus({ days: 90 }).toMillis())
    assert.notInclude(JSON.stringify(w.tokens.rows), token.split('.')[1])
    assertIdsOnly(assert, w)
  })

  test('--expires-in durations: units s, m, h, d; anything else refused', ({ assert }) => {
    assert.equal(durationSeconds('30s'), 30)
    assert.equal(durationSeconds('15m'), 900)
    assert.equal(durationSeconds('12h'), 43_200)
    assert.equal(durationSeconds('90d'), 7_776_000)
    for (const bad of ['0s', '3w', '1.5h', '-1d', 'd', '', '10', '1000000s'])
      assert.isNull(durationSeconds(bad), bad)
  })
})

test.group('SetAppAbility and ReadApplication', () => {
  test('adds and removes an ability, forgets the memory, writes nothing when unchanged', async ({
    assert,
  }) => {
    const w = world()
    const { token } = await issued(w)
    await w.authenticate.execute(token, T0)
    const added = await w.abilities.execute(1, 'add', 'consultas:crear')
    assert.isTrue(added.ok)
    assert.deepEqual(w.apps.apps[0].abilities, ['consultas:crear'])
    // The memory forgot the app's credential: the next request reads the app afresh.
    assert.isUndefined(w.memory.recall(token))
    const writes = w.apps.writes
    assert.isTrue((await w.abilities.execute(1, 'add', 'consultas:crear')).ok)
    assert.equal(w.apps.writes, writes, 'adding a held ability writes nothing')
    assert.isTrue((await w.abilities.execute(1, 'remove', 'consultas:crear')).ok)
    assert.deepEqual(w.apps.apps[0].abilities, [])
    assert.isTrue((await w.abilities.execute(1, 'remove', 'consultas:crear')).ok)
    assert.equal(w.apps.writes, writes + 1, 'removing a missing ability writes nothing')
    assert.deepEqual(w.apps.apps[1].abilities, [], 'the other app is untouched')
    assertIdsOnly(assert, w)
  })

  test('an unknown app: app_not_found, for the change and for the read', async ({ assert }) => {
    const w = world()
    assert.deepEqual(await w.abilities.execute(99, 'add', 'consultas:crear'), {
      ok: false,
      reason: 'app_not_found',
    })
    assert.deepEqual(await w.reader.execute({ id: 99 }), { ok: false, reason: 'app_not_found' })
    const read = await w.reader.execute({ id: 2 })
    assert.isTrue(read.ok && read.value.name === 'Other')
  })
})
