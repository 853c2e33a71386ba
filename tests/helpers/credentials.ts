/*
 * Calls of the credential specs: rotations and reads from a fresh client
 * address each (loopback is a trusted proxy, so no per-address limit is
 * reached), and the operator's commands as processes.
 */
import { execFile } from 'node:child_process'
import { promisify, stripVTControlCharacters } from 'node:util'
import app from '@adonisjs/core/services/app'
import { raw } from '#tests/helpers/http'

const run = promisify(execFile)

let addresses = 0
/** A client address no earlier request of the run used (198.51.100.0/24 … 198.51.199.0/24). */
export const freshAddress = () =>
  `198.51.${100 + (Math.floor(++addresses / 250) % 100)}.${addresses % 250}`

/** `node ace …` in the app's folder, as an operator runs it. */
export function ace(...args: string[]) {
  return run(process.execPath, ['ace', ...args], { cwd: app.makePath() })
}

/** The exit code and the non-blank output lines of a command expected to fail. */
export async function aceFails(...args: string[]) {
  try {
    await ace(...args)
  } catch (error: any) {
    const out = `${error.stdout}${error.stderr}`
    const lines = out.split('\n').filter((line) => stripVTControlCharacters(line).trim())
    return { code: error.code as number, lines }
  }
  throw new Error(`ace ${args.join(' ')} succeeded`)
}

/** `POST /v3/credenciales` with `token`. */
export function rotate(token: string, body: unknown = {}) {
  return raw('/v3/credenciales', {
    method: 'POST',
    headers: {
      'Authorization': `Bearer ${token}`,
      'Content-Type': 'application/json',
      'X-Forwarded-For': freshAddress(),
    },
    body: JSON.stringify(body),
  })
}

/** A GET with `token` (and an `Accept`, or a given client address). */
export function get(path: string, token: string, init: { accept?: string; address?: string } = {}) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
  if (init.accept) headers.Accept = init.accept
  headers['X-Forwarded-For'] = init.address ?? freshAddress()
  return raw(path, { headers })
}
