/*
 * A second web process of this app (the production entry point, bin/server.ts)
 * on the suite's database and a free port, for tests of what several
 * processes see (credential memory, limits).
 */
import { spawn } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import { freePort } from '#tests/helpers/free_port'
import { until } from '#tests/helpers/until'

export async function startWebProcess() {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['--import=@poppinss/ts-exec', 'bin/server.ts'], {
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
  return { url, stop }
}
