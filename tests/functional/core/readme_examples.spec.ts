/*
 * Every request example of the README runs as written against a fresh
 * `npm start` (issue 28, DESIGN.md §19): the `curl` lines of its ```sh blocks
 * are extracted (tests/helpers/readme_examples.ts) and sent, in order, to the
 * test server holding the demo data the first `npm start` makes. Only the
 * README's own placeholders are filled in: `TOKEN=…` / `<token>` → the demo
 * token, `ETAG=…` → the ETag the previous example answered, the service's
 * address → the test server, the walkthrough's receiver (127.0.0.1:4000) → a
 * test receiver. Each answers the status its trailing comment names, or a 2xx.
 */
import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { settings } from '#core/settings'
import type { StartContext } from '#core/modules'
import { DEMO_ADMIN_MAIL, runDemo } from '#buyers/demo'
import { createCaller } from '#tests/helpers/apps'
import { seedCatalog } from '#tests/helpers/catalog'
import { baseUrl, raw } from '#tests/helpers/http'
import { startLeadWorkers } from '#tests/helpers/leads'
import { outboundPrivate, startReceiver, type Receiver } from '#tests/helpers/receiver'
import {
  curlRequest,
  extractExamples,
  shellWords,
  type Statement,
} from '#tests/helpers/readme_examples'

const README = new URL('../../../README.md', import.meta.url)
/** The README's limit (a hook checks it on commit too). */
const README_MAX_BYTES = 15_360

/** The examples the README holds today, by method and path: adding one means adding it here. */
const EXPECTED = [
  'PUT /v3/notificaciones/demo@agencia-demo.com.ar',
  'POST /v3/consultas/demo@agencia-demo.com.ar',
  'GET /v3',
  'POST /v3/publicaciones/demo@agencia-demo.com.ar',
  'GET /v3/publicaciones/demo@agencia-demo.com.ar/STOCK-1',
  'PATCH /v3/publicaciones/demo@agencia-demo.com.ar/STOCK-1',
  'PATCH /v3/publicaciones/demo@agencia-demo.com.ar/STOCK-1',
  'POST /v3/publicaciones/demo@agencia-demo.com.ar/sincronizaciones',
]

/** Where the README says the service and the walkthrough's receiver listen. */
const README_SERVICE = 'http://localhost:3333'
const README_RECEIVER = 'http://127.0.0.1:4000'

async function readme() {
  return readFile(README, 'utf8')
}

function curls(statements: Statement[]) {
  return statements.filter((statement) => statement.kind === 'curl')
}

/** The request of an example with the README's placeholders filled in. */
function requestOf(
  statement: Extract<Statement, { kind: 'curl' }>,
  variables: Map<string, string>,
  receiver?: Receiver
) {
  let command = statement.command.replaceAll('<token>', '$TOKEN')
  command = command.replaceAll(README_SERVICE, baseUrl())
  if (receiver) command = command.replaceAll(README_RECEIVER, receiver.url('').replace(/\/$/, ''))
  const { words } = shellWords(command, (name) => {
    const value = variables.get(name)
    if (value === undefined) {
      throw new Error(`README line ${statement.line}: $${name} is not a documented placeholder`)
    }
    return value
  })
  return curlRequest(words, statement.stdin)
}

test.group('README examples: the extractor', () => {
  test('finds every example of the README, each a request to the service', async ({ assert }) => {
    const text = await readme()
    assert.isAtMost(Buffer.byteLength(text), README_MAX_BYTES)
    const statements = extractExamples(text)
    const variables = new Map([
      ['TOKEN', 'token'],
      ['ETAG', '"1.1"'],
    ])
    const found = curls(statements).map((statement) => {
      const request = requestOf(statement, variables)
      assert.isTrue(
        request.url.startsWith(baseUrl()),
        `README line ${statement.line} names the service as ${README_SERVICE}: ${request.url}`
      )
      return `${request.method} ${new URL(request.url).pathname}`
    })
    assert.deepEqual(found, EXPECTED)
    assert.deepEqual(
      statements.filter((s) => s.kind === 'assign').map((s) => s.kind === 'assign' && s.name),
      ['TOKEN', 'ETAG']
    )
  })

  test('reads curl as sh would: continuations, quotes, variables, heredocs, a status comment', ({
    assert,
  }) => {
    const markdown = [
      '```text',
      'curl http://localhost:3333/not-an-example',
      '```',
      '```sh',
      'npm start    # not an example',
      'OUTBOUND_ALLOW_PRIVATE=true npm start',
      'X=1   # a placeholder',
      `curl -X PUT -H "Authorization: Bearer $X" -H 'If-Match: "1.2"' \\`,
      `  -d '{"A":"it''s"}' \\`,
      '  http://localhost:3333/v3/a   # 412: stale',
      "curl --data-binary @- http://localhost:3333/v3/b <<'EOF'",
      '{"B": 1}',
      'EOF',
      '```',
    ].join('\n')
    const statements = extractExamples(markdown)
    assert.deepEqual(
      statements.map((s) => [s.kind, s.line]),
      [
        ['assign', 7],
        ['curl', 8],
        ['curl', 11],
      ]
    )
    const [, put, post] = statements
    assert.equal(put.kind === 'curl' && put.status, 412)
    const first = curlRequest(shellWords(put.kind === 'curl' ? put.command : '', () => 'tok').words)
    assert.deepEqual(first, {
      method: 'PUT',
      url: 'http://localhost:3333/v3/a',
      headers: {
        'authorization': 'Bearer tok',
        'if-match': '"1.2"',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '{"A":"its"}',
      follow: false,
    })
    assert.isUndefined(post.kind === 'curl' ? post.status : 0)
    const second = curlRequest(
      shellWords(post.kind === 'curl' ? post.command : '').words,
      post.kind === 'curl' ? post.stdin : undefined
    )
    assert.equal(second.method, 'POST')
    assert.equal(second.body, '{"B": 1}\n')
    assert.throws(() => curlRequest(['curl', '-o', 'x', 'http://a']), /unsupported curl option/)
  })
})

test.group('README examples: run against the demo data of npm start', (group) => {
  let receiver: Receiver
  outboundPrivate(group, true)
  group.setup(async () => {
    await startLeadWorkers()
    receiver = await startReceiver()
    return () => receiver.close()
  })

  test('every example answers the status the README says', async ({ assert }) => {
    // The demo app and data as the first `npm start` makes them (tests/functional/buyers/demo_data.spec.ts),
    // on the suite's catalogue (tests/helpers/catalog.ts) instead of the bundled one.
    await seedCatalog()
    const { app: demoApp, token } = await createCaller('Demo', ['consultas:crear'])
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    ace.ui.logger.flushLogs()
    const context: StartContext = {
      logger: ace.ui.logger,
      ui: ace.ui,
      publicUrl: settings.publicUrl,
      demoApp: { id: demoApp.id, token },
    }
    const demo = await runDemo(context, {
      switches: { nodeEnv: 'development', demoData: true },
    })
    const printed = ace.ui.logger.getLogs().map((log) => log.message)
    assert.isNotNull(demo, printed.join('\n'))
    assert.equal(demo!.adminMail, DEMO_ADMIN_MAIL)

    const statements = extractExamples(await readme())
    const variables = new Map<string, string>()
    let lastEtag: string | null = null
    const ran: string[] = []
    for (const statement of statements) {
      if (statement.kind === 'assign') {
        if (statement.name === 'TOKEN') variables.set('TOKEN', token)
        else if (statement.name === 'ETAG') {
          assert.isNotNull(lastEtag, `README line ${statement.line}: no ETag answered before`)
          // The README shows a fresh start's tag: the same form, quotes included.
          assert.match(statement.value, /^"\d+\.\d+"$/, `README line ${statement.line}`)
          variables.set('ETAG', lastEtag!)
        } else assert.fail(`README line ${statement.line}: ${statement.name} is not a placeholder`)
        continue
      }
      const request = requestOf(statement, variables, receiver)
      const url = new URL(request.url)
      const init: RequestInit = {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: request.follow ? 'follow' : 'manual',
      }
      const response =
        url.origin === new URL(baseUrl()).origin
          ? await raw(url.pathname + url.search, init)
          : await fetch(url, init)
      const text = await response.text()
      const where = `README line ${statement.line}: ${request.method} ${url.pathname} answered ${response.status} ${text.slice(0, 500)}`
      if (statement.status) assert.equal(response.status, statement.status, where)
      else assert.isTrue(response.status >= 200 && response.status < 300, where)
      lastEtag = response.headers.get('etag') ?? lastEtag
      // `ETag: "5.2"` in the comment: a fresh start's listing id differs here, its revision not.
      const claimed = /ETag: "\d+\.(\d+)"/.exec(statement.comment ?? '')
      if (claimed)
        assert.equal(response.headers.get('etag')?.split('.')[1], `${claimed[1]}"`, where)
      ran.push(`${response.status} ${request.method} ${url.pathname}`)
    }
    assert.lengthOf(ran, EXPECTED.length, ran.join('\n'))

    // The walkthrough: "within a second the receiver prints POST /leads" with the Standard Webhooks headers.
    const [lead] = await receiver.waitFor(1)
    assert.equal(lead.method, 'POST')
    assert.equal(lead.path, '/leads')
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      assert.property(lead.headers, header)
    }
    assert.equal(lead.json().Consulta.Auto.ExternalId, 'DEMO-1')
  }).timeout(60_000)
})
