/*
 * Ids on the operators' command lines (docs/design.md §25): an id beyond its
 * column, or not a positive integer, is one error line and a non-zero exit —
 * never a database error and its stack trace. One parser for every command
 * (app/core/commands/command_input.ts).
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { promisify, stripVTControlCharacters } from 'node:util'
import app from '@adonisjs/core/services/app'
import { idOf, MAX_ID } from '#core/commands/command_input'

const run = promisify(execFile)

/** The exit code and the non-blank output lines of a command expected to fail. */
async function aceFails(args: string[]) {
  try {
    await run(process.execPath, ['ace', ...args], { cwd: app.makePath() })
  } catch (error: any) {
    const out = stripVTControlCharacters(`${error.stdout}${error.stderr}`)
    return { code: error.code as number, lines: out.split('\n').filter((line) => line.trim()) }
  }
  throw new Error(`ace ${args.join(' ')} succeeded`)
}

test.group('Command ids', () => {
  test('ids beyond the column or not positive integers: one line, exit 1, no stack trace', async ({
    assert,
  }) => {
    const mail = 'nadie@example.com'
    const cases: Array<[string[], string]> = [
      [['agency:grant', mail, '--app', '99999999999'], '--app must be an app id'],
      [['agency:grant', mail, '--app', '2147483648'], '--app must be an app id'],
      [['agency:grant', mail, '--app', 'abc'], '--app must be an app id'],
      [['agency:grant', mail, '--app', '1e3'], '--app must be an app id'],
      [['agency:grant', mail, '--app', '0'], '--app must be an app id'],
      [['stock:sync', mail, 'stock.json', '--app', '99999999999'], '--app must be an app id'],
      [['stock:sync', mail, 'stock.json', '--app', '1.5'], '--app must be an app id'],
      [['app:revoke', '--app', '99999999999', '--all'], '--app must be a positive integer'],
      [['app:tokens', '99999999999'], 'APP_ID must be a positive integer'],
      [['app:revoke', '2147483648'], 'TOKEN_ID must be a positive integer'],
    ]
    for (const [args, message] of cases) {
      const { code, lines } = await aceFails(args)
      const label = args.join(' ')
      assert.equal(code, 1, label)
      assert.lengthOf(lines, 1, `${label}:\n${lines.join('\n')}`)
      assert.include(lines[0], message, label)
      assert.notMatch(lines[0], /error:|out of range|\bat /i, label)
    }
  }).timeout(120_000)

  test('idOf: the edges of the integer column', ({ assert }) => {
    assert.equal(idOf('1'), 1)
    assert.equal(idOf(String(MAX_ID)), MAX_ID)
    for (const bad of [
      String(MAX_ID + 1),
      '99999999999',
      '0',
      '-1',
      '01',
      '1.5',
      '1e3',
      ' 1',
      'abc',
      '',
      undefined,
    ])
      assert.isNull(idOf(bad), String(bad))
  })
})
