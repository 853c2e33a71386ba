/*
 * bin/test_selection.ts: a test run attaches PostgreSQL (and migrates) unless
 * it can only run unit specs.
 */
import { test } from '@japa/runner'
import { fileURLToPath } from 'node:url'
import { fileMatches, needsDatabase, parseSelection } from '../../../bin/test_selection.js'

const testsDir = fileURLToPath(new URL('../../', import.meta.url))

test.group('Test runs: which need the database', () => {
  test('suites and files are read as Japa reads them', ({ assert }) => {
    assert.deepEqual(parseSelection(['unit', '--files', 'a', '--files=b,c', '--timeout', '9']), {
      suites: ['unit'],
      files: ['a', 'b', 'c'],
      failed: false,
    })
    assert.isTrue(parseSelection(['--failed']).failed)
  })

  test('only the unit suite, or files that only name unit specs, run without it', ({ assert }) => {
    assert.isFalse(needsDatabase(['unit'], testsDir))
    assert.isFalse(needsDatabase(['unit', '--files', 'catalog/vehicles'], testsDir))
    assert.isFalse(needsDatabase(['--files', 'tests/unit/core/recent.spec.ts'], testsDir))
    assert.isFalse(needsDatabase(['--files', 'module_boundaries'], testsDir))
  })

  test('every other run needs it', ({ assert }) => {
    assert.isTrue(needsDatabase([], testsDir))
    assert.isTrue(needsDatabase(['functional'], testsDir))
    assert.isTrue(needsDatabase(['unit', 'functional'], testsDir))
    assert.isTrue(needsDatabase(['--files', 'catalog/vehicles'], testsDir))
    assert.isTrue(needsDatabase(['--files', 'tests/functional/catalog/*'], testsDir))
    assert.isTrue(needsDatabase(['unit', '--failed'], testsDir))
  })

  test("a files filter matches as Japa's does: by the end of the path, segment by segment", ({
    assert,
  }) => {
    assert.isTrue(fileMatches('tests/functional/catalog/vehicles.spec.ts', 'vehicles'))
    assert.isTrue(fileMatches('tests/functional/catalog/vehicles.spec.ts', 'catalog/*'))
    assert.isTrue(
      fileMatches(
        'tests/functional/catalog/vehicles.spec.ts',
        'functional/catalog/vehicles.spec.ts'
      )
    )
    assert.isFalse(fileMatches('tests/functional/catalog/vehicles.spec.ts', 'buyers/vehicles'))
  })
})
