/*
 * `npm run bench:boot`: how long a fresh clone's `npm start` takes to answer
 * `/health/ready` 200 on an empty DATA_DIR (embedded PostgreSQL: initdb,
 * migrations, the bundled catalogue, pg-boss), and a second start on the same
 * directory. BOOT_RUNS (default 1) repeats the pair; the DATA_DIR is removed.
 */
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.env.BOOT_RUNS ?? 1)

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })

/** Seconds from `npm start` to the first 200 of /health/ready, then a graceful stop. */
async function boot(dataDir, port) {
  const startedAt = performance.now()
  // Its own process group: npm, sh and node all get the SIGINT.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  let done = false
  exited.then(() => (done = true))
  while (!done) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`)
      .then((response) => response.status)
      .catch(() => 0)
    if (status === 200) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const seconds = (performance.now() - startedAt) / 1000
  if (done) throw new Error('npm start exited before it was ready')
  process.kill(-child.pid, 'SIGINT')
  await exited
  return seconds
}

for (let run = 1; run <= RUNS; run++) {
  // Traversable by the `postgres` user the embedded server runs as when started by root.
  const dataDir = mkdtempSync(join(tmpdir(), 'first-boot-'))
  chmodSync(dataDir, 0o755)
  try {
    const port = await freePort()
    const first = await boot(dataDir, port)
    const second = await boot(dataDir, port)
    console.log(
      `run ${run}: first start ready after ${first.toFixed(1)} s, second start after ${second.toFixed(1)} s`
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
