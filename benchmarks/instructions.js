/*
 * BENCH_INSTRUCTIONS=1: each selected scenario's instructions per request, the
 * service's web process and the bare baseline each started a second time under
 * `valgrind --tool=callgrind` against the same database and set-up.
 * Instrumentation is off while WARM requests warm the JIT up, then on for
 * COUNTED requests (`callgrind_control`), so boot and warm-up are not counted.
 * Unlike requests/s, the count does not move with the VM's speed or with other
 * load, so two commits compare by it within a few per cent; what still moves it
 * is whether a full collection falls in the counted window, hence the
 * collector's share beside it (docs/performance.md, "speed held").
 * BENCH_INSTRUCTIONS_WARM (default 5000) and BENCH_INSTRUCTIONS_COUNTED (2000).
 */
import { spawn, execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

// Under valgrind V8's compiler threads run in turn with the main one, so optimized code comes
// requests later than it would: the GET /v3 304 counted 692 k instructions after 1 500 requests
// of warm-up, 504 k after 2 000, 438 k after 3 000. Compare counts taken with the same settings.
const WARM = Number(process.env.BENCH_INSTRUCTIONS_WARM ?? 5000)
const COUNTED = Number(process.env.BENCH_INSTRUCTIONS_COUNTED ?? 2000)
/** The collector's own functions in callgrind's flat profile (V8's heap, marking, scavenging, sweeping). */
const GC_FUNCTION =
  /Marking|Scaveng|Sweep|MarkCompact|Evacuat|RememberedSet|SlotSet|IteratePointers|SizeFromMap|MinorMS|Heap::/

export function callgrindAvailable() {
  try {
    // callgrind_annotate and callgrind_control come with valgrind.
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * Starts `args` (node's) under callgrind, instrumentation off, and resolves
 * once `readyPath` answers. Its `count(send, n)` sends and counts.
 */
export async function underCallgrind({ name, args, cwd, env, url, readyPath, dir }) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      // V8 writes the code it runs: valgrind must notice code changing outside the stack.
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      process.execPath,
      ...args,
    ],
    { cwd, env, stdio: ['ignore', 'ignore', 'ignore'] }
  )
  // vgdb names its pipes after the HOST of the process it talks to.
  const controlEnv = { ...process.env }
  if (env.HOST === undefined) delete controlEnv.HOST
  else controlEnv.HOST = env.HOST
  const control = (...flags) =>
    execFileSync('callgrind_control', [...flags, String(child.pid)], {
      env: controlEnv,
      stdio: 'ignore',
    })
  const deadline = Date.now() + 600_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} under callgrind exited`)
    if (Date.now() > deadline) throw new Error(`${name} under callgrind did not answer`)
    try {
      const response = await fetch(url + readyPath)
      if (response.status < 500) break
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return {
    /** Instructions per request of `send` over COUNTED requests, after WARM uncounted ones. */
    async count(send) {
      await send(WARM)
      control('--instr=on')
      const statuses = await send(COUNTED)
      control('--dump')
      control('--instr=off')
      const dumps = readdirSync(dir)
        // cg.<pid>.<n>: the n-th dump (cg.<pid> is written when the process exits).
        .filter((file) => /^cg\.\d+\.\d+$/.test(file))
        .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
      const file = join(dir, dumps.at(-1))
      const total = Number(/^summary: (\d+)/m.exec(readFileSync(file, 'utf8'))?.[1] ?? Number.NaN)
      return { perRequest: total / COUNTED, gcShare: gcShare(file, total), statuses }
    },
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/** The collector's share of a dump's instructions (callgrind_annotate's flat profile). */
function gcShare(file, total) {
  const profile = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  let gc = 0
  for (const line of profile.split('\n')) {
    const match = /^\s*([\d,]+) \(/.exec(line)
    if (match && !line.includes('PROGRAM TOTALS') && GC_FUNCTION.test(line))
      gc += Number(match[1].replaceAll(',', ''))
  }
  return gc / total
}

/** `n` requests of `request`, ten at a time; the statuses seen. */
export async function sendRequests(url, request, headers, n) {
  const paths = request.paths ?? [request.path]
  const statuses = {}
  let next = 0
  let left = n
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (left-- > 0) {
        const response = await fetch(url + paths[next++ % paths.length], {
          method: request.method ?? 'GET',
          headers: { ...request.headers, ...headers },
          body: request.nextBody ? request.nextBody() : request.body,
        })
        await response.arrayBuffer()
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
      }
    })
  )
  return statuses
}

export const INSTRUCTION_COUNTS = { warm: WARM, counted: COUNTED }
