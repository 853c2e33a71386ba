/*
 * Whether a test run needs PostgreSQL: only when it may run a file outside
 * tests/unit/ (the unit suite runs without a database). Read from the
 * command line before the app boots, because the embedded database attaches in
 * a booting hook (bin/boot.ts), before Japa parses its own arguments.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Japa's flags that take a value (`--files x` as well as `--files=x`). */
const VALUED = new Set(['tests', 'groups', 'tags', 'files', 'timeout', 'retries', 'reporters'])

type Selection = { suites: string[]; files: string[]; failed: boolean }

export function parseSelection(argv: string[]): Selection {
  const selection: Selection = { suites: [], files: [], failed: false }
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]
    if (!arg.startsWith('-')) {
      selection.suites.push(arg)
      continue
    }
    const [flag, inline] = arg.replace(/^-+/, '').split(/=(.*)/s)
    if (flag === 'failed') selection.failed = true
    if (!VALUED.has(flag)) continue
    const value = inline ?? argv[++index] ?? ''
    if (flag === 'files') selection.files.push(...value.split(',').filter(Boolean))
  }
  return selection
}

/** Japa's `--files` match (FileManager.grep): the name ends with the filter, segment by segment. */
export function fileMatches(file: string, filter: string) {
  if (file.endsWith(filter)) return true
  const fileSegments = file
    .replace(/\.spec\.(ts|js)$/, '')
    .split('/')
    .reverse()
  return filter
    .split('/')
    .reverse()
    .every(
      (segment, index) =>
        fileSegments[index] !== undefined &&
        (segment === '*' || fileSegments[index].endsWith(segment))
    )
}

/** True unless the run can only select unit specs. */
export function needsDatabase(argv: string[], testsDir: string): boolean {
  const { suites, files, failed } = parseSelection(argv)
  if (failed) return true
  if (suites.length > 0 && suites.every((suite) => suite === 'unit')) return false
  if (files.length === 0) return true
  const others = readdirSync(testsDir, { recursive: true, encoding: 'utf8' })
    .map((path) => `tests/${path.replaceAll('\\', '/')}`)
    .filter((path) => /\.spec\.(ts|js)$/.test(path) && !path.startsWith('tests/unit/'))
  return others.some((path) => files.some((filter) => fileMatches(path, filter)))
}

export function testsRoot(appRoot: URL) {
  return fileURLToPath(new URL('tests/', appRoot))
}
