import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'

const run = promisify(execFile)

/** Runs `node ace …` as an operator would, against the suite's database. */
function ace(...args: string[]) {
  return run(process.execPath, ['ace', ...args], { cwd: app.makePath(), env: process.env })
}

test.group('Admin commands', () => {
  test('app:create --json prints exactly {Id, Nombre, Token}; the token works', async ({
    client,
    assert,
  }) => {
    const { stdout } = await ace('app:create', 'CLI app', '--ability', 'consultas:crear', '--json')
    const created = JSON.parse(stdout)
    assert.deepEqual(Object.keys(created), ['Id', 'Nombre', 'Token'])
    assert.equal(stdout.trim(), JSON.stringify(created))
    assert.equal(created.Nombre, 'CLI app')
    assert.match(created.Token, /^dla_/)
    ;(await client.get('/v3').bearerToken(created.Token)).assertStatus(200)
  })

  test('app:create refuses unknown abilities and empty names', async ({ assert }) => {
    await assert.rejects(() => ace('app:create', 'x', '--ability', 'todo:poder', '--json'))
    await assert.rejects(() => ace('app:create', ' ', '--json'))
  })

  test('app:token issues a second token; both work', async ({ client }) => {
    const { stdout } = await ace('app:create', 'Rotating', '--json')
    const created = JSON.parse(stdout)
    const issued = await ace('app:token', String(created.Id))
    const second = /dla_[A-Za-z0-9._-]+/.exec(issued.stdout)![0]
    ;(await client.get('/v3').bearerToken(second)).assertStatus(200)
    ;(await client.get('/v3').bearerToken(created.Token)).assertStatus(200)
  })

  test('jobs:run refuses an unknown queue', async ({ assert }) => {
    await assert.rejects(() => ace('jobs:run', 'no.such.queue'))
  })
})
