/*
 * docs/module_services.md is true to the code, read from the sources (no app
 * boot, no database): every import of one feature module by another
 * (`#agencies/services/agency_directory` from listings, …) is documented in the
 * first column of one of its tables, and every `#…` path or `tests/helpers/…`
 * file the document names exists. Imports of `app/core` are the shared base of
 * docs/architecture.md ("One way to do each thing") and are not required here;
 * the core paths the document names must exist all the same.
 */
import { test } from '@japa/runner'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crossImports, readSources, type SourceFile } from '#tests/helpers/module_graph'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const DOC = 'docs/module_services.md'

/** The import paths the document offers: `#…` and `tests/helpers/…` in the first cell of a table row. */
export function documentedImports(markdown: string) {
  const offered = new Set<string>()
  for (const line of markdown.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1]
    if (!first) continue
    for (const [, path] of first.matchAll(/`((?:#|tests\/helpers\/)[^`\s]+)`/g))
      offered.add(path.replace(/\.(ts|js)$/, ''))
  }
  return offered
}

/** Every `#module/…` path named anywhere in the document (tables and prose). */
export function namedPaths(markdown: string) {
  return new Set(
    [...markdown.matchAll(/`(#[a-z_]+\/[\w/.-]+|tests\/helpers\/[\w/.-]+)`/g)].map(([, path]) =>
      path.replace(/\.(ts|js)$/, '')
    )
  )
}

/** What the document gets wrong about the sources under `base`. */
export function docProblems(markdown: string, files: SourceFile[], base: string) {
  const offered = documentedImports(markdown)
  const undocumented = new Map<string, Set<string>>()
  for (const edge of crossImports(files)) {
    if (edge.to === 'core') continue
    const path = `#${edge.to}/${edge.target}`
    if (!offered.has(path))
      undocumented.set(path, (undocumented.get(path) ?? new Set()).add(edge.file))
  }
  const sources = new Set(files.map((file) => file.path.replace(/\.ts$/, '')))
  const missing = [...namedPaths(markdown)].filter((path) =>
    path.startsWith('#')
      ? !sources.has(`app/${path.slice(1)}`)
      : !existsSync(posix.join(base, `${path}.ts`))
  )
  return {
    undocumented: [...undocumented].map(([path, users]) => `${path} (${[...users].join(', ')})`),
    missing,
  }
}

test.group('docs/module_services.md', () => {
  test('documents every import between modules, and names only paths that exist', async ({
    assert,
  }) => {
    const markdown = await readFile(posix.join(root, DOC), 'utf8')
    const files = await readSources(root)
    // The document is read: it offers the well-known services.
    assert.isTrue(documentedImports(markdown).has('#agencies/services/agency_directory'))
    const problems = docProblems(markdown, files, root)
    assert.deepEqual(
      problems.undocumented,
      [],
      `imports between modules missing from ${DOC} (add a row under the imported module)`
    )
    assert.deepEqual(problems.missing, [], `${DOC} names paths that do not exist`)
  })

  test('a synthetic tree and document with both faults are caught', async ({ assert, cleanup }) => {
    const fixture = posix.join(root, 'tmp', 'module_services_doc_fixture')
    cleanup(() => rm(fixture, { recursive: true, force: true }))
    const tree: Record<string, string> = {
      'app/agencies/services/agency_directory.ts': `export default class AgencyDirectory {}`,
      'app/agencies/services/secret_helper.ts': `export const x = 1`,
      'app/listings/services/create.ts': `import AgencyDirectory from '#agencies/services/agency_directory'\nimport { x } from '../../agencies/services/secret_helper.js'\nimport type { Problem } from '#core/http/problem'`,
      'app/core/http/problem.ts': `export class Problem {}`,
    }
    for (const [path, source] of Object.entries(tree)) {
      await mkdir(posix.dirname(posix.join(fixture, path)), { recursive: true })
      await writeFile(posix.join(fixture, path), source)
    }
    const markdown = [
      '| import | what |',
      '|---|---|',
      '| `#agencies/services/agency_directory` | the directory |',
      '| `#agencies/services/renamed_away` | gone |',
      '| `tests/helpers/nowhere.ts` | gone too |',
      'See `#core/http/problem` and `#core/http/moved`.',
    ].join('\n')

    const problems = docProblems(markdown, await readSources(fixture), fixture)
    assert.deepEqual(problems.undocumented, [
      '#agencies/services/secret_helper (app/listings/services/create.ts)',
    ])
    assert.sameMembers(problems.missing, [
      '#agencies/services/renamed_away',
      'tests/helpers/nowhere',
      '#core/http/moved',
    ])
  })
})
