/*
 * Layers inside a module (docs/design.md §23), read from the sources: no
 * import circle spans more than two files of a module, and a job or command
 * imports nothing from `http/` (wire wording is made where an answer is
 * written). Beside module_boundaries.spec.ts, which checks the modules
 * against each other.
 */
import { test } from '@japa/runner'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { moduleOf, readSources, type SourceFile } from '#tests/helpers/module_graph'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** A job or command that may import `http/`, and why. */
const EDGE_EXCEPTIONS: Record<string, string> = {
  'app/core/commands/start.ts': 'it serves HTTP: it closes the server it started',
}

/** `#listings/jobs` or `./x.js` from `importer` → `app/listings/jobs`; null for a package. */
function resolved(importer: string, specifier: string) {
  if (specifier.startsWith('#')) return `app/${specifier.slice(1)}`.replace(/\.js$/, '')
  if (specifier.startsWith('.'))
    return posix.join(posix.dirname(importer), specifier).replace(/\.js$/, '')
  return null
}

const typeOnly = (node: ts.ImportDeclaration | ts.ExportDeclaration) => {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly
  const clause = node.importClause
  if (!clause) return false
  if (clause.isTypeOnly) return true
  const named = clause.namedBindings
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((element) => element.isTypeOnly)
  )
}

/**
 * The files of app/ each file imports (without `.ts`), static or `import()`.
 * With `types: false`, value imports only: a type-only import is erased at
 * build and orders no loading, so it makes no circle.
 */
export function fileImports(
  files: SourceFile[],
  { types }: { types: boolean }
): Map<string, string[]> {
  const known = new Set(files.map((file) => file.path.replace(/\.ts$/, '')))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const specifiers: string[] = []
    const visit = (node: ts.Node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        (types || !typeOnly(node))
      ) {
        specifiers.push(node.moduleSpecifier.text)
      }
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        specifiers.push(node.arguments[0].text)
      }
      ts.forEachChild(node, visit)
    }
    visit(ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest))
    const targets = specifiers
      .map((specifier) => resolved(file.path, specifier))
      .filter((path): path is string => path !== null && known.has(path))
    graph.set(file.path.replace(/\.ts$/, ''), [...new Set(targets)])
  }
  return graph
}

/** The import circles (strongly connected sets of files) inside one module with more than `max` files. */
export function longCircles(files: SourceFile[], max = 2): string[][] {
  const graph = fileImports(files, { types: false })
  // Tarjan, over the edges that stay inside a module.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (file: string) => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (moduleOf(target + '.ts') !== moduleOf(file + '.ts')) continue
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const circle: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      circle.push(member)
    } while (member !== file)
    if (circle.length > max) found.push(circle.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

/**
 * `file imports target` for each job or command (app/<module>/{jobs,commands}/…)
 * that imports an `http/` file, even for a type only.
 */
export function edgesIntoHttp(files: SourceFile[]): string[] {
  const found: string[] = []
  for (const [file, targets] of fileImports(files, { types: true })) {
    if (!/^app\/[^/]+\/(jobs|commands)\//.test(file) || EDGE_EXCEPTIONS[file + '.ts']) continue
    for (const target of targets) {
      if (/^app\/[^/]+\/http\//.test(target)) found.push(`${file}.ts imports ${target}`)
    }
  }
  return found
}

test.group('Module layers', () => {
  test('app/: no import circle of more than two files in a module; no job or command imports http/', async ({
    assert,
  }) => {
    const files = await readSources(root)
    assert.isAbove(files.length, 100)
    // The graph is real: the sync job's imports are seen.
    assert.include(
      fileImports(files, { types: false }).get('app/listings/jobs/stock_sync'),
      'app/listings/services/run_sync'
    )
    assert.deepEqual(longCircles(files), [], 'an import circle of more than two files')
    assert.deepEqual(edgesIntoHttp(files), [], 'a job or command imports http/')
  })

  test('a synthetic tree with a 3-file circle and a job and a command importing http/ is caught', async ({
    assert,
    cleanup,
  }) => {
    const tree: Record<string, string> = {
      // A 3-file circle, one edge of it a lazy import(): caught.
      'app/listings/jobs.ts': `export const jobs = [{ handler: () => import('#listings/jobs/sync') }]`,
      'app/listings/jobs/sync.ts': `import Run from '#listings/services/run'\nimport { wording } from '#listings/http/problems'`,
      'app/listings/services/run.ts': `import { jobs } from '../jobs.js'`,
      'app/listings/http/problems.ts': `export const wording = 1`,
      'app/listings/commands/sync.ts': `export async function run() {\n  const { wording } = await import('../http/problems.js')\n}`,
      // Two files importing each other: allowed.
      'app/leads/services/a.ts': `import { b } from './b.js'\nexport const a = 1`,
      'app/leads/services/b.ts': `import { a } from './a.js'\nexport const b = 1`,
      // A circle of type-only imports: no circle. Imports between modules: not this check's.
      'app/buyers/services/x.ts': `import type { Y } from './y.js'`,
      'app/buyers/services/y.ts': `import { type Z } from './z.js'`,
      'app/buyers/services/z.ts': `import type { X } from './x.js'\n// import '#buyers/http/in_a_comment'`,
      'app/buyers/jobs/send.ts': `import type { Problem } from '#core/http/problem'\nimport { x } from '#buyers/services/x'`,
      'app/core/http/problem.ts': `import { a } from '#leads/services/a'`,
      'app/core/commands/start.ts': `import { close } from '#core/http/problem'`,
      'app/leads/services/c.ts': `import '#core/http/problem'`,
    }
    const fixture = posix.join(root, 'tmp', 'module_layers_fixture')
    cleanup(() => rm(fixture, { recursive: true, force: true }))
    for (const [path, source] of Object.entries(tree)) {
      await mkdir(posix.dirname(posix.join(fixture, path)), { recursive: true })
      await writeFile(posix.join(fixture, path), source)
    }
    const files = await readSources(fixture)

    assert.deepEqual(longCircles(files), [
      ['app/listings/jobs', 'app/listings/jobs/sync', 'app/listings/services/run'],
    ])
    // Two files are allowed; three are not.
    assert.lengthOf(longCircles(files, 1), 2)
    // Even a type: a job names no wire shape. Not a service, nor core's start (which serves HTTP).
    assert.sameMembers(edgesIntoHttp(files), [
      'app/listings/jobs/sync.ts imports app/listings/http/problems',
      'app/listings/commands/sync.ts imports app/listings/http/problems',
      'app/buyers/jobs/send.ts imports app/core/http/problem',
    ])
  })
})
