/*
 * The docs point to places that exist: a `design.md §N` a document cites,
 * within the sections docs/design.md summarises so far, is one of them — a
 * gap (§15 was cited, never written) is a dangling reference. Sections past
 * the summary's last (the design brief's newer ones) are not checked here.
 * No boot, no database.
 */
import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../', import.meta.url))

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? markdownFiles(join(dir, entry.name))
        : entry.name.endsWith('.md')
          ? [join(dir, entry.name)]
          : []
    )
  )
  return nested.flat()
}

test.group('Docs: references', () => {
  test('every design.md §N cited by README.md or docs/ up to its last section is one of its sections', async ({
    assert,
  }) => {
    const design = await readFile(join(root, 'docs/design.md'), 'utf8')
    const sections = new Set([...design.matchAll(/^## §(\d+)\b/gm)].map(([, n]) => n))
    assert.isTrue(sections.has('14') && sections.has('16'), 'docs/design.md is read')
    const last = Math.max(...[...sections].map(Number))
    const dangling: string[] = []
    for (const file of ['README.md', ...(await markdownFiles('docs'))]) {
      const text = await readFile(join(root, file), 'utf8')
      for (const [cited, n] of text.matchAll(/design\.md §(\d+)/g))
        if (Number(n) <= last && !sections.has(n)) dangling.push(`${file}: ${cited}`)
    }
    assert.deepEqual(dangling, [])
  })
})
