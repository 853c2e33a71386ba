/*
 * The module import graph of `app/`, read from the sources (no app boot):
 * every `#module/…` or relative specifier, static, type-only or dynamic, that
 * lands in another module. tests/unit/core/module_boundaries.spec.ts checks
 * the house rules of docs/architecture.md on it.
 */
import { readdir, readFile } from 'node:fs/promises'
import { posix } from 'node:path'
import ts from 'typescript'

export type SourceFile = { path: string; source: string }

/** One import of `file` (from module `from`) that lands in module `to`, at `target` inside it. */
export type ModuleImport = {
  from: string
  to: string
  target: string
  file: string
  specifier: string
}

/** Every `.ts` file under `root/app`, with paths relative to `root`. */
export async function readSources(root: string): Promise<SourceFile[]> {
  const entries = await readdir(posix.join(root, 'app'), { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  return Promise.all(
    files.map(async (entry) => {
      const absolute = posix.join(entry.parentPath, entry.name)
      return { path: posix.relative(root, absolute), source: await readFile(absolute, 'utf8') }
    })
  )
}

/** `app/<module>/…` → module, else null. */
export function moduleOf(path: string): string | null {
  const match = /^app\/([^/]+)\//.exec(path)
  return match ? match[1] : null
}

/** The imports of the sources that cross from one module into another. */
export function crossImports(files: SourceFile[]): ModuleImport[] {
  const modules = new Set(files.map((file) => moduleOf(file.path)).filter((name) => name !== null))
  const found: ModuleImport[] = []
  for (const file of files) {
    const from = moduleOf(file.path)
    if (!from) continue
    // Comments and strings are skipped by the scanner; `import('…')` counts too.
    const { importedFiles } = ts.preProcessFile(file.source, true, true)
    for (const { fileName: specifier } of importedFiles) {
      const inside = landing(file.path, specifier, modules)
      if (inside && inside.module !== from)
        found.push({ from, to: inside.module, target: inside.target, file: file.path, specifier })
    }
  }
  return found
}

/** The path (from the root, without `.js`) a `#…` or relative specifier names, else null (a package). */
function resolved(importer: string, specifier: string) {
  if (specifier.startsWith('#')) return `app/${specifier.slice(1)}`.replace(/\.js$/, '')
  if (specifier.startsWith('.'))
    return posix.join(posix.dirname(importer), specifier).replace(/\.js$/, '')
  return null
}

function landing(importer: string, specifier: string, modules: Set<string>) {
  const path = resolved(importer, specifier)
  if (!path) return null
  const module = moduleOf(path)
  if (!module || !modules.has(module)) return null
  return { module, target: path.slice(`app/${module}/`.length) }
}

/** Module → the modules it imports, each with the imports that make the edge. */
export function moduleGraph(imports: ModuleImport[]) {
  const graph = new Map<string, Map<string, ModuleImport[]>>()
  for (const edge of imports) {
    const targets = graph.get(edge.from) ?? new Map<string, ModuleImport[]>()
    targets.set(edge.to, [...(targets.get(edge.to) ?? []), edge])
    graph.set(edge.from, targets)
  }
  return graph
}

/** A cycle of the graph as the modules along it (first = last), or null. */
export function findCycle(graph: ReturnType<typeof moduleGraph>): string[] | null {
  const done = new Set<string>()
  const path: string[] = []
  const visit = (module: string): string[] | null => {
    const open = path.indexOf(module)
    if (open >= 0) return [...path.slice(open), module]
    if (done.has(module)) return null
    path.push(module)
    for (const next of [...(graph.get(module)?.keys() ?? [])].sort()) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    path.pop()
    done.add(module)
    return null
  }
  for (const module of [...graph.keys()].sort()) {
    const cycle = visit(module)
    if (cycle) return cycle
  }
  return null
}

/** A cycle with, for each step, one import that makes it: for the failure message. */
export function describeCycle(graph: ReturnType<typeof moduleGraph>, cycle: string[]) {
  return cycle
    .slice(1)
    .map((to, index) => {
      const edge = graph.get(cycle[index])!.get(to)![0]
      return `${edge.from} → ${to} (${edge.file} imports ${edge.specifier})`
    })
    .join('\n')
}

/** The house rules (docs/architecture.md) the imports break, one line each. */
export function boundaryViolations(imports: ModuleImport[]) {
  const line = (edge: ModuleImport) => `${edge.file} imports ${edge.specifier}`
  const graph = moduleGraph(imports)
  const cycle = findCycle(graph)
  return {
    coreImportsModule: imports.filter((edge) => edge.from === 'core').map(line),
    cycle: cycle ? describeCycle(graph, cycle) : null,
    internals: imports.filter((edge) => /^(controllers|models)\//.test(edge.target)).map(line),
  }
}

/*
 * "No SQL outside stores" (docs/architecture.md, Stores). SQL lives in
 * `app/<module>/stores/` (core's own in `app/core/stores/`); `app/<module>/models/`
 * holds model definitions (a model may name another in a relation); and
 * `app/core/database/` is the infrastructure under the stores: the pool query,
 * the unit of work, migrations at boot, the embedded database, health's
 * `select 1` and pg-boss's statements on a caller's transaction. `database/`
 * (migrations, seeders) is outside `app/` and not read. Anywhere else a file
 * may not import Lucid's `db` service or `#core/database/pool_query`, import a
 * model as a value (`import type` is fine), nor call `.rawQuery(`,
 * `.knexRawQuery(` or `.knexQuery(`.
 */
const SQL_HOMES = [/^app\/[^/]+\/stores\//, /^app\/[^/]+\/models\//, /^app\/core\/database\//]
const SQL_MODULES = new Set(['@adonisjs/lucid/services/db', '#core/database/pool_query'])
const SQL_CALLS = new Set(['rawQuery', 'knexRawQuery', 'knexQuery'])
/** Files without any of these words cannot break the rule: they are not parsed. */
const MAYBE_SQL = /models\/|services\/db|pool_query|rawQuery|knexQuery/i

/** The SQL of `files` outside the stores, one line each: `<file> imports <specifier>` / `<file> calls .<name>(`. */
export function sqlOutsideStores(files: SourceFile[]): string[] {
  const found: string[] = []
  for (const file of files) {
    if (SQL_HOMES.some((home) => home.test(file.path)) || !MAYBE_SQL.test(file.source)) continue
    const source = ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest)
    const visit = (node: ts.Node) => {
      const imported = valueImport(node)
      if (imported !== null && isSqlModule(file.path, imported))
        found.push(`${file.path} imports ${imported}`)
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        SQL_CALLS.has(node.expression.name.text)
      )
        found.push(`${file.path} calls .${node.expression.name.text}(`)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

/** The specifier of an import, re-export or `import()` that loads the module (not `import type`), or null. */
function valueImport(node: ts.Node): string | null {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    return node.importClause?.isTypeOnly ? null : node.moduleSpecifier.text
  }
  if (
    ts.isExportDeclaration(node) &&
    node.moduleSpecifier &&
    ts.isStringLiteral(node.moduleSpecifier)
  )
    return node.isTypeOnly ? null : node.moduleSpecifier.text
  if (
    ts.isCallExpression(node) &&
    node.expression.kind === ts.SyntaxKind.ImportKeyword &&
    node.arguments[0] &&
    ts.isStringLiteral(node.arguments[0])
  )
    return node.arguments[0].text
  return null
}

function isSqlModule(importer: string, specifier: string) {
  if (SQL_MODULES.has(specifier)) return true
  const path = resolved(importer, specifier)
  return (
    path !== null && (/^app\/[^/]+\/models\//.test(path) || SQL_MODULES.has(`#${path.slice(4)}`))
  )
}
