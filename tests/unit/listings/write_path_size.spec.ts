/*
 * The listing write path reads in pieces (docs/design.md §23): no function of
 * it over 50 lines, counted from the sources (declarations, methods, arrow
 * functions and function expressions alike).
 */
import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const MAX_LINES = 50

const WRITE_PATH = [
  'change_listing',
  'apply_edit',
  'create_listing',
  'listing_rules',
  'fixed_members',
  'photo_set',
]

/** `name (lines)` of each function of `source` longer than `max` lines. */
function longFunctions(path: string, source: string, max = MAX_LINES): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line
      const last = file.getLineAndCharacterOfPosition(node.end).line
      const name = node.name?.getText(file) ?? '(anonymous)'
      if (last - first + 1 > max) found.push(`${path} ${name} (${last - first + 1})`)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

test.group('The listing write path', () => {
  test('no function over 50 lines', async ({ assert }) => {
    for (const name of WRITE_PATH) {
      const url = new URL(`../../../app/listings/services/${name}.ts`, import.meta.url)
      const source = await readFile(fileURLToPath(url), 'utf8')
      assert.deepEqual(longFunctions(`${name}.ts`, source), [])
    }
  })

  test('the count is in lines, from the first to the last, on both sides of the edge', ({
    assert,
  }) => {
    const body = (lines: number) =>
      Array(lines - 2)
        .fill('  x()\n')
        .join('')
    const source = `function fifty() {\n${body(50)}}\nclass C {\n  fiftyOne() {\n${body(51)}  }\n}\nconst f = () => {\n${body(51)}}\n`
    assert.deepEqual(longFunctions('x.ts', source), ['x.ts fiftyOne (51)', 'x.ts (anonymous) (51)'])
  })
})
