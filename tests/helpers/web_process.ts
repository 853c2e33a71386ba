/*
 * A second web process of this app (the production entry point, bin/server.ts)
 * on the suite's database and a free port, for tests of what several
 * processes see (credential memory, limits), or under the production heap
 * flags (`nodeFlags: WEB_HEAP_FLAGS`).
 */
import { spawn } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import { freePort } from '#tests/helpers/free_port'
import { until } from '#tests/helpers/until'

/** The web process's heap flags in production (docs/operations.md). */
export const WEB_HEAP_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=8']

export async function startWebProcess(options: { nodeFlags?: string[] } = {}) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const args = [...(options.nodeFlags ?? []), '--import=@poppinss/ts-exec', 'bin/server.ts']
  const child = spawn(process.execPath, args, {
    cwd: app.makePath(),
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const live = await until(
    () =>
      fetch(`${url}/health/live`).then(
        (response) => response.status,
        () => 0
      ),
    (status) => status === 200 || child.exitCode !== null,
    20_000
  )
  if (live !== 200) {
    child.kill('SIGKILL')
    throw new Error(`web process did not start: ${stderr}`)
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  /** Whether the process is still running (not crashed, not killed). */
  const alive = () => child.exitCode === null && child.signalCode === null
  return { url, stop, alive, stderr: () => stderr }
}
