/*
 * Fuzz over every operation of the live `/v3/openapi.json` (issue 11, Deliver
 * 9): fast-check with a fixed seed draws ~2 000 requests mixing valid values
 * (the test world's adminmail, listing, inquiry, bodies from the schemas)
 * with hostile ones — NUL, unpaired surrogates, malformed percent-encoding,
 * ids beyond int4/int8 and 1e400, wrong types, long strings, broken or
 * scalar JSON, wrong content types and encodings, bad tokens. Every answer:
 * no 5xx; every error of the API a problem document whose TraceId is its
 * X-Request-Id; and a listing never targeted is byte-identical afterwards.
 * A deterministic sweep then sets every field of every request body to
 * out-of-range numbers and wrong types. An operation that also takes
 * text/csv (the stock sync) gets hostile CSV in the draws, and a table of
 * them of its own: each a problem document with a 4xx and no sync stored, or
 * a 202 with the rows the CSV really holds. Last, the shapes that froze the
 * process (deep, wide, forbidden names, wide CSV headers) against a web
 * process under the production heap flags, with a health probe.

 */
import { test } from '@japa/runner'
import fc from 'fast-check'
import { gzipSync } from 'node:zlib'
import { baseUrl, raw } from '#tests/helpers/http'
import { createCaller, issueToken } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { createListing, listingBody } from '#tests/helpers/listings'
import { inquiryBody } from '#tests/helpers/leads'
import { seedCatalog } from '#tests/helpers/catalog'
import { startWebProcess, WEB_HEAP_FLAGS } from '#tests/helpers/web_process'

const SEED = 20_261_124
const RUNS = 2000

type Operation = { method: string; path: string; params: any[]; body?: any; public: boolean }
type World = {
  token: string
  adminMail: string
  externalId: string
  sid: string
  branchId: number
  slug: string
  listingId: number
  collaborator: string
  /**
   * Another token of the world's app, sent only to POST /v3/credenciales: a rotation ends the
   * token it is sent with (a drawn 0 s: at once), and `token` must live through the run.
   */
  rotationToken: string
}

const ROTATION = 'POST /v3/credenciales'
const SYNC_POST = 'POST /v3/publicaciones/{adminmail}/sincronizaciones'
/** The token a request of the operation sends. */
const tokenFor = (op: Operation, world: World) =>
  `${op.method} ${op.path}` === ROTATION ? world.rotationToken : world.token

/** Placeholders replaced in the serialized JSON by what JSON.stringify cannot write. */
const RAW: Record<string, string> = {
  __RAW_1E400__: '1e400',
  __RAW_NEG_1E400__: '-1e400',
  __RAW_BIGINT__: '123456789012345678901234567890',
  __RAW_DEEP__: '['.repeat(5000) + ']'.repeat(5000),
}

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ufffd',
  '\u202e\u200b',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '../../etc/passwd',
  'a'.repeat(300),
  'ñ'.repeat(70_000),
  '2147483648',
  '9223372036854775808',
  '-1',
  '1e400',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  'a@b',
  'a/b@example.com',
  'x@example.com\r\nBcc: y@example.com',
  'javascript:alert(1)',
  'http://127.0.0.1:1/x',
  'https://169.254.169.254/latest',
  '%00',
  '%FF',
  '🚗',
]

const HOSTILE_NUMBERS = [
  0,
  -1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  2 ** 63,
  1e308,
  -1e308,
  0.5,
  1.23456789,
  '__RAW_1E400__',
  '__RAW_NEG_1E400__',
  '__RAW_BIGINT__',
]

const HOSTILE_PATH = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C3%28',
  '%FF',
  '%',
  '%E0%A4%A',
  '2147483647',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999',
  '1e400',
  '-1',
  '0',
  'x'.repeat(3000),
  '%2F',
  '%2e%2e',
  'a@b',
  'a%40b.c',
  '%20',
  'null',
  '%F0%9F%9A%97',
  '%C3%B1',
  '%EF%BF%BD',
]

const HOSTILE_QUERY = [
  '%00',
  '%FF',
  '%C3%28',
  '%ED%A0%80',
  '%',
  '2147483648',
  '99999999999999999999',
  '1e400',
  '-1',
  'a'.repeat(5000),
  '%EF%BF%BD',
  '[]',
  'null',
]

const ACCEPTS = [
  undefined,
  'application/json',
  'application/vnd.service.ref+json',
  '*/*',
  'text/html',
  'application/xml',
  'application/json;q=abc',
  ',,,',
  'text/json;q=0.1, */*;q=0',
]

const CSV_HEADER =
  'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Precio.Moneda,Precio.Importe'
const csvRow = (externalId: string, description = '') =>
  `${externalId},Toyota,Corolla,2.0 XEI CVT,${new Date().getFullYear()},0,USD,32500${description}`
const csvOf = (...lines: string[]) => lines.join('\n') + '\n'
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part)))
  )

type CsvCase = {
  name: string
  body: string | Buffer
  /** Content-Type; text/csv unless said. */
  type?: string
  /** The query string; `?modo=Parcial&simular=true` unless said. */
  query?: string
  headers?: Record<string, string>
  /** 202 with this many rows (Total), else a 4xx problem (this status when given). */
  accepted?: number
  status?: number
}

/** Hostile CSV bodies for the stock sync POST (docs/design.md §15). */
const HOSTILE_CSV: CsvCase[] = [
  { name: 'an unclosed quote', body: csvOf(CSV_HEADER, '"CSV-Q1,Toyota,Corolla'), status: 400 },
  {
    name: 'a quote inside an unquoted cell',
    body: csvOf(CSV_HEADER, csvRow('CSV"Q2')),
    status: 400,
  },
  {
    name: 'text after a closing quote',
    body: csvOf(CSV_HEADER, '"CSV-Q3"x' + csvRow('').slice(0)),
    status: 400,
  },
  {
    name: 'a quoted header cell with a stray quote',
    body: csvOf('"ExternalId""', csvRow('CSV-Q4')),
    status: 400,
  },
  { name: 'a UTF-8 BOM', body: '\ufeff' + csvOf(CSV_HEADER, csvRow('CSV-B1')), accepted: 1 },
  {
    name: 'a UTF-8 BOM before Windows-1252 bytes',
    body: bytes('\ufeff' + CSV_HEADER + ',Descripcion\n', csvRow('CSV-B2', ','), [0xe9, 0x0a]),
    status: 400,
  },
  { name: 'a BOM alone', body: '\ufeff', status: 400 },
  // The UTF-8 decoder takes one, the CSV parser the other: a re-encoded export still reads.
  { name: 'two BOMs', body: '\ufeff\ufeff' + csvOf(CSV_HEADER, csvRow('CSV-B3')), accepted: 1 },
  {
    name: 'mixed line ends (\\r\\n, \\n, \\r)',
    body: `${CSV_HEADER}\r\n${csvRow('CSV-L1')}\n${csvRow('CSV-L2')}\r${csvRow('CSV-L3')}\r\n\r\n`,
    accepted: 3,
  },
  { name: 'only \\r line ends', body: `${CSV_HEADER}\r${csvRow('CSV-L4')}\r`, accepted: 1 },
  {
    name: 'a quoted cell holding every line end',
    body: csvOf(CSV_HEADER + ',Descripcion', csvRow('CSV-L5', ',"uno\r\ndos\nres\rcuatro"')),
    accepted: 1,
  },
  { name: 'a NUL byte in a cell', body: csvOf(CSV_HEADER, csvRow('CSV-N\u00001')), status: 400 },
  {
    name: 'a NUL byte in the header',
    body: csvOf('External\u0000Id,Marca', 'CSV-N2,Toyota'),
    status: 400,
  },
  { name: 'NUL bytes only', body: Buffer.alloc(64), status: 400 },
  {
    name: 'UTF-16 (NUL in every other byte)',
    body: Buffer.from(csvOf(CSV_HEADER, csvRow('CSV-N3')), 'utf16le'),
    type: 'text/csv; charset=utf-16',
    status: 400,
  },
  {
    // Decided on the first chunk: bytes that are not UTF-8 in it make the whole body Windows-1252.
    name: 'UTF-8 and bytes that are not, in one chunk (read as Windows-1252)',
    body: bytes(
      csvOf(CSV_HEADER + ',Descripcion', csvRow('CSV-E1', ',ñandú')),
      csvRow('CSV-E2', ','),
      [0xc3, 0x28, 0x0a]
    ),
    accepted: 2,
  },
  {
    // UTF-8 decided on the first chunk; the bad bytes come ~200 KB later, in another one.
    name: 'UTF-8 for 200 KB, then bytes that are not',
    body: bytes(
      csvOf(
        CSV_HEADER + ',Descripcion',
        csvRow('CSV-E3', ',ñandú'),
        ...Array.from({ length: 3000 }, (_, index) => csvRow(`CSV-E4-${index}`, ',relleno'))
      ),
      csvRow('CSV-E5', ','),
      [0xc3, 0x28, 0x0a]
    ),
    status: 400,
  },
  {
    name: 'a lone UTF-8 lead byte at the end',
    body: bytes(csvOf(CSV_HEADER + ',Descripcion', csvRow('CSV-E3', ',ñandú')), [0xe2, 0x82]),
    status: 400,
  },
  {
    name: 'Windows-1252 (é, ñ, €)',
    body: bytes(CSV_HEADER + ',Descripcion\n', csvRow('CSV-W1', ','), [0xe9, 0xf1, 0x80, 0x0a]),
    accepted: 1,
  },
  {
    name: 'bytes Windows-1252 leaves undefined (0x81, 0x8d, 0x8f, 0x90, 0x9d)',
    body: bytes(
      CSV_HEADER + ',Descripcion\n',
      csvRow('CSV-W2', ','),
      [0x81, 0x8d, 0x8f, 0x90, 0x9d, 0x0a]
    ),
    accepted: 1,
  },
  {
    name: 'an unknown column',
    body: csvOf(CSV_HEADER + ',Motor', csvRow('CSV-C1', ',V8')),
    status: 400,
  },
  {
    name: 'a repeated column',
    body: csvOf(CSV_HEADER + ',Marca', csvRow('CSV-C2', ',Ford')),
    status: 400,
  },
  {
    name: 'a row with a cell too many',
    body: csvOf(CSV_HEADER, csvRow('CSV-C3', ',sobra')),
    status: 400,
  },
  { name: 'a row with a cell too few', body: csvOf(CSV_HEADER, 'CSV-C4,Toyota'), status: 400 },
  {
    name: 'a dotted column past its member',
    body: csvOf('ExternalId,Precio.Importe.Valor', 'CSV-C5,1'),
    status: 400,
  },
  {
    name: '5 000 rows (the limit)',
    body: csvOf(CSV_HEADER, ...Array.from({ length: 5000 }, (_, index) => csvRow(`CSV-R${index}`))),
    accepted: 5000,
  },
  {
    name: '5 001 rows',
    body: csvOf(CSV_HEADER, ...Array.from({ length: 5001 }, (_, index) => csvRow(`CSV-S${index}`))),
    status: 400,
  },
  { name: 'a header only', body: csvOf(CSV_HEADER), status: 400 },
  { name: 'a header and blank lines', body: csvOf(CSV_HEADER, '', '', ''), status: 400 },
  {
    name: 'a header only, Completa',
    body: csvOf(CSV_HEADER),
    query: '?modo=Completa',
    status: 400,
  },
  { name: 'an empty body', body: '', status: 400 },
  { name: 'blank lines only', body: '\r\n\n\r', status: 400 },
  { name: 'no ?modo', body: csvOf(CSV_HEADER, csvRow('CSV-M1')), query: '', status: 400 },
  {
    name: 'an unknown ?modo',
    body: csvOf(CSV_HEADER, csvRow('CSV-M2')),
    query: '?modo=Total',
    status: 400,
  },
  {
    name: '?simular that is no boolean',
    body: csvOf(CSV_HEADER, csvRow('CSV-M3')),
    query: '?modo=Parcial&simular=quizas',
    status: 400,
  },
  {
    name: 'CSV sent as text/plain',
    body: csvOf(CSV_HEADER, csvRow('CSV-T1')),
    type: 'text/plain',
    status: 415,
  },
  {
    name: 'CSV sent as application/vnd.ms-excel',
    body: csvOf(CSV_HEADER, csvRow('CSV-T2')),
    type: 'application/vnd.ms-excel',
    status: 415,
  },
  {
    name: 'CSV sent as JSON',
    body: csvOf(CSV_HEADER, csvRow('CSV-T3')),
    type: 'application/json',
    status: 400,
  },
  {
    name: 'JSON sent as CSV',
    body: JSON.stringify({ Modo: 'Parcial', Publicaciones: [] }),
    status: 400,
  },
  {
    name: 'a gzipped CSV',
    body: gzipSync(csvOf(CSV_HEADER, csvRow('CSV-T4'))),
    headers: { 'Content-Encoding': 'gzip' },
    status: 415,
  },
]

/** Tokens that must be refused with 401. */
function hostileTokens(token: string): Array<string | undefined> {
  return [
    undefined,
    'Bearer',
    'Bearer ',
    'Bearer garbage',
    `Bearer ${token.slice(0, -1)}x`,
    `Basic ${token}`,
    `Bearer ${token}x`,
    `bearer ${'a'.repeat(2000)}`,
    'Bearer dla_',
    'Bearer dla_1.',
    `Bearer dla_1.${'x'.repeat(40)}`,
    // Token ids that are not an integer, or beyond int4/int8.
    'Bearer dla_YWJj.c2VjcmV0c2VjcmV0',
    'Bearer dla_2147483648.c2VjcmV0c2VjcmV0',
    'Bearer dla_99999999999999999999.c2VjcmV0c2VjcmV0',
  ]
}

/** A schema-shaped value: examples and enums first, else a plausible value of the type. */
function sample(schema: any, components: Record<string, any>, depth = 0): any {
  if (!schema || depth > 6) return null
  if (schema.$ref) return sample(components[schema.$ref.split('/').pop()], components, depth + 1)
  if (schema.examples?.length) return schema.examples[0]
  if (schema.example !== undefined) return schema.example
  if (schema.enum)
    return schema.enum.find((value: unknown) => value !== null && value !== '') ?? null
  const options = schema.oneOf ?? schema.anyOf
  if (options) return sample(options[0], components, depth + 1)
  const type = Array.isArray(schema.type)
    ? schema.type.find((t: string) => t !== 'null')
    : schema.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        out[name] = sample(property, components, depth + 1)
      return out
    }
    case 'array':
      return [sample(schema.items, components, depth + 1)]
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return true
    case 'string':
      if (schema.format === 'email') return uniqueEmail('fuzz')
      if (schema.format === 'uri') return 'https://fotos.example/x.jpg'
      if (schema.format === 'date') return '2026-01-01'
      return 'Texto de prueba'.slice(
        0,
        Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 15, 15))
      )
    default:
      return null
  }
}

/** Every leaf path of a JSON value (`['Interesado', 'Email']`), the value itself included. */
function leafPaths(value: any, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [prefix]
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value))
      out.push(...leafPaths(item, [...prefix, Array.isArray(value) ? Number(key) : key]))
  }
  return out
}

function setAt(target: any, path: Array<string | number>, value: unknown): any {
  if (path.length === 0) return value
  const copy = structuredClone(target)
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key]
  node[path[path.length - 1]] = value
  return copy
}

function serialize(value: unknown): string {
  let text = JSON.stringify(value) ?? 'null'
  for (const [marker, literal] of Object.entries(RAW))
    text = text.replaceAll(`"${marker}"`, literal)
  return text
}

const hostileValue = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_STRINGS),
  fc.constantFrom<unknown>(...HOSTILE_NUMBERS),
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    [],
    {},
    [null],
    { a: 1 },
    [[[[['x']]]]],
    '__RAW_DEEP__',
    ['\u0000'],
    { '\u0000': 'x' },
    { 'k\ud800': 1 }
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 })
)

/** One request, drawn: every choice is an index resolved against the operation at hand. */
const plan = fc.record({
  op: fc.nat(),
  world: fc.nat(2),
  pathMode: fc.array(fc.nat(9), { minLength: 4, maxLength: 4 }),
  pathHostile: fc.array(fc.constantFrom(...HOSTILE_PATH), { minLength: 4, maxLength: 4 }),
  queryMode: fc.array(fc.nat(5), { minLength: 8, maxLength: 8 }),
  queryHostile: fc.array(
    fc.oneof(
      fc.constantFrom(...HOSTILE_QUERY),
      fc.string({ unit: 'binary', maxLength: 20 }).map(encodeURIComponentLenient)
    ),
    { minLength: 8, maxLength: 8 }
  ),
  bodyMode: fc.nat(19),
  field: fc.nat(),
  value: hostileValue,
  auth: fc.nat(44),
  accept: fc.nat(ACCEPTS.length - 1),
  precondition: fc.nat(6),
})

function encodeURIComponentLenient(value: string) {
  try {
    return encodeURIComponent(value)
  } catch {
    // Lone surrogates cannot be encoded: send them as the raw bytes of their code unit.
    return [...value]
      .map((char) => (/[\ud800-\udfff]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char)))
      .join('')
  }
}

function validPathValue(name: string, world: World): string {
  const values: Record<string, string | number> = {
    adminmail: world.adminMail,
    externalid: world.externalId,
    sid: world.sid,
    id: name === 'id' ? 1 : 1,
    topic: 'invitaciones',
    codigo: 'USD',
    codename: 'nafta',
    slug: world.slug,
    token: 'token-de-prueba',
    listing: world.listingId,
    file: 'x.jpg',
  }
  return encodeURIComponent(String(values[name] ?? 'x')).replaceAll('%40', '@')
}

function validQueryValue(name: string, world: World): string {
  const values: Record<string, string> = {
    operador: world.collaborator,
    operadorDestino: world.collaborator,
    externalid: world.externalId,
    pagina: '1',
    desde: '2026-01-01',
    hasta: '2026-01-31',
    q: 'toyota',
    make: 'Toyota',
    model: 'Corolla',
    marca: '1',
    modelo: '1',
    year: '2024',
    region: 'Buenos Aires',
    estado: 'Activa',
    canal: 'PublicacionConsultadaAdfHook',
    modo: 'Parcial',
    simular: 'true',
    confirmarBajas: 'false',
    resultado: 'Creada',
  }
  return encodeURIComponent(values[name] ?? 'x')
}

function build(
  operations: Operation[],
  components: Record<string, any>,
  worlds: World[],
  draw: typeof plan extends fc.Arbitrary<infer T> ? T : never
) {
  const op = operations[draw.op % operations.length]
  const world = worlds[draw.world % worlds.length]
  let pathIndex = 0
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const index = pathIndex++ % 4
    return draw.pathMode[index] < 3 ? draw.pathHostile[index] : validPathValue(name, world)
  })
  const query: string[] = []
  op.params
    .filter((param) => param.in === 'query')
    .forEach((param, index) => {
      const mode = draw.queryMode[index % 8]
      if (mode === 0 && !param.required) return
      const value = mode <= 2 ? draw.queryHostile[index % 8] : validQueryValue(param.name, world)
      query.push(`${param.name}=${value}`)
      if (mode === 1) query.push(`${param.name}[]=x&${param.name}[a]=y`)
    })
  const headers: Record<string, string> = {}
  const tokens = hostileTokens(tokenFor(op, world))
  const authorization =
    draw.auth < tokens.length ? tokens[draw.auth] : `Bearer ${tokenFor(op, world)}`
  if (authorization) headers.Authorization = authorization
  const accept = ACCEPTS[draw.accept]
  if (accept) headers.Accept = accept
  if (draw.precondition === 1) headers['If-Match'] = '"nope", W/"x", *'
  if (draw.precondition === 2) headers['If-None-Match'] = '\u00ff'.repeat(10)
  if (draw.precondition === 3) headers['X-Request-Id'] = 'cliente-' + 'z'.repeat(50)

  let body: string | Buffer | undefined
  if (op.body || ['POST', 'PUT', 'PATCH'].includes(op.method)) {
    const valid = validBody(op, components, world)
    headers['Content-Type'] = 'application/json'
    const mode = draw.bodyMode
    if (mode <= 9) {
      const paths = leafPaths(valid)
      body = serialize(setAt(valid, paths[draw.field % paths.length], draw.value))
    } else if (mode === 10) body = serialize(valid)
    else if (mode === 11) body = ['"hola"', 'null', '1', 'true', '""'][draw.field % 5]
    else if (mode === 12)
      body = ['{"a":', '{]', '\u0000', '{"a":"\\x"}', '{"a":1}}', "{'a':1}", '\ufeff{}'][
        draw.field % 7
      ]
    else if (mode === 13) {
      headers['Content-Type'] = [
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        '',
      ][draw.field % 6]
      body = headers['Content-Type'].includes('urlencoded')
        ? 'Nombre=a%00b&Email=%FF&x[y][z]=1'
        : serialize(valid)
    } else if (mode === 14) {
      headers['Content-Encoding'] = 'gzip'
      body =
        draw.field % 2
          ? Buffer.from('definitely not gzip')
          : gzipSync(serialize(valid)).subarray(0, 10)
    } else if (mode === 15) {
      headers['Content-Encoding'] = ['zstd', 'compress', 'gzip, br', 'identity', 'GZIP'][
        draw.field % 5
      ]
      body = serialize(valid)
    } else if (mode === 16) {
      headers['Content-Encoding'] = ['gzip', 'deflate', 'br'][draw.field % 3]
      body = gzipSync(serialize(valid))
    } else if (mode === 17)
      body = serialize({ ...valid, ...{ [`k${draw.field % 7}`]: draw.value } })
    else if (mode === 18) body = serialize(Array.isArray(valid) ? valid : [valid])
    else body = '{"a":"' + 'x'.repeat(1_100_000) + '"}'
    // An operation that also takes text/csv gets hostile CSV in a third of its draws.
    if (op.body?.content?.['text/csv'] && draw.field % 3 === 0) {
      const chosen = HOSTILE_CSV[Math.floor(draw.field / 3) % HOSTILE_CSV.length]
      headers['Content-Type'] = chosen.type ?? 'text/csv'
      delete headers['Content-Encoding']
      Object.assign(headers, chosen.headers)
      body = chosen.body
    }
  }
  return {
    method: op.method,
    path: path + (query.length ? `?${query.join('&')}` : ''),
    headers,
    body,
    api: op.path.startsWith('/v3'),
  }
}

function validBody(op: Operation, components: Record<string, any>, world: World): any {
  const key = `${op.method} ${op.path}`
  if (key === 'POST /v3/publicaciones/{adminmail}') return listingBody()
  if (
    key === 'PUT /v3/publicaciones/{adminmail}/{externalid}' ||
    key === 'PATCH /v3/publicaciones/{adminmail}/{externalid}'
  ) {
    const { ExternalId: _e, Marca: _m, Modelo: _o, Version: _v, ...edit } = listingBody()
    return edit
  }
  if (key === 'POST /v3/consultas/{adminmail}') return inquiryBody(world.externalId)
  // Simulated: a sync the fuzz gets through writes nothing but itself (no worker runs it anyway).
  if (key === SYNC_POST) return { Modo: 'Parcial', Simular: true, Publicaciones: [listingBody()] }
  if (key === 'POST /v3/agencias')
    return { AdminMail: uniqueEmail('fuzzinv'), NombreComercial: 'Agencia Fuzz' }
  const schema =
    op.body?.content?.['application/json']?.schema ??
    op.body?.content?.['application/x-www-form-urlencoded']?.schema
  return schema ? (sample(schema, components) ?? {}) : {}
}

async function makeWorld(withUntouched: boolean) {
  const { app, token } = await createCaller('Fuzz app', ['consultas:crear'])
  const fixture = await createAgency(app, { collaborators: [uniqueEmail('fuzzcol')] })
  const listing = await createListing(app, fixture)
  const inquiry = await raw(`/v3/consultas/${fixture.agency.adminMail}`, {
    method: 'POST',
    headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(inquiryBody(listing.externalId)),
  })
  const sid = (inquiry.headers.get('location') ?? '').split('/').pop() ?? 'x'
  // Callbacks to test (POST /v3/notificaciones/{adminmail}/prueba reaches its send; nothing
  // listens there: Estado null). Inactive, so the drawn inquiries queue nothing to them.
  await raw(`/v3/notificaciones/${fixture.agency.adminMail}`, {
    method: 'PUT',
    headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      PublicacionConsultadaWebHook: {
        Callback: 'http://127.0.0.1:9/fuzz',
        Secret: 'fuzz-secret-0123456789',
        Activo: false,
      },
      PublicacionConsultadaAdfHook: { Callback: 'http://127.0.0.1:9/fuzz-adf', Activo: false },
    }),
  })
  const branches: any = await (
    await raw(`/v3/sucursales/${fixture.agency.adminMail}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()
  const branchHref: string = branches?._entries?.[0]?._links?.self?.href ?? '/1'
  let untouched: { adminMail: string; externalId: string } | undefined
  if (withUntouched) {
    // Another agency of the same app: no drawn value ever names it.
    const other = await createAgency(app)
    const kept = await createListing(app, other, { Descripcion: 'Nunca tocada por el fuzz 🚗' })
    untouched = { adminMail: other.agency.adminMail, externalId: kept.externalId }
  }
  const w: World = {
    token,
    adminMail: fixture.agency.adminMail,
    externalId: listing.externalId,
    sid,
    branchId: Number(branchHref.split('/').pop()),
    slug: listing.slug,
    listingId: listing.id,
    collaborator: fixture.collaborators[0].email,
    rotationToken: (await issueToken(app.id, { name: 'fuzz rotation' })).token,
  }
  return { w, untouched }
}

type Sent = {
  method: string
  path: string
  headers: Record<string, string>
  body?: string | Buffer
  api: boolean
}

/** Sends one request and records what breaks the rules; false when the client could not send it. */
async function check(
  request: Sent,
  failures: Map<string, string>,
  statuses: Map<number, number>
): Promise<boolean> {
  let response: Response
  try {
    response = await fetch(baseUrl() + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
    })
  } catch (error: any) {
    // The client refused to send it (an invalid URL or header): nothing reached the service.
    if (error instanceof TypeError && !/fetch failed/.test(error.message)) return false
    failures.set(
      `${request.method} ${request.path.slice(0, 120)}`,
      `transport: ${error.cause?.code ?? error.message}`
    )
    return true
  }
  const text = await response.text()
  const status = response.status
  statuses.set(status, (statuses.get(status) ?? 0) + 1)
  const encoding = request.headers['Content-Encoding']
    ? ' ' + request.headers['Content-Encoding']
    : ''
  const body =
    typeof request.body === 'string' ? request.body.slice(0, 160) : request.body ? 'bytes' : ''
  const label = `${request.method} ${request.path.slice(0, 160)} [${request.headers['Content-Type'] ?? ''}${encoding}] body=${body}`
  const requestId = response.headers.get('x-request-id')
  if (status >= 500) failures.set(label, `${status} ${text.slice(0, 200)}`)
  else if (!requestId) failures.set(label, `${status} without X-Request-Id`)
  else if (status >= 400 && request.api) {
    const type = response.headers.get('content-type') ?? ''
    if (!type.startsWith('application/problem+json')) failures.set(label, `${status} ${type}`)
    else {
      let traceId: unknown
      try {
        traceId = JSON.parse(text).Extensions?.TraceId
      } catch {}
      if (traceId !== requestId)
        failures.set(label, `${status} TraceId ${String(traceId)} ≠ ${requestId}`)
    }
  }
  return true
}

/** A few requests in flight at once, as clients do; the draw order stays the seed's. */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>, width = 4) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++])
    })
  )
}

function report(
  assert: any,
  name: string,
  sent: number,
  started: number,
  statuses: Map<number, number>,
  failures: Map<string, string>
) {
  const seconds = (Date.now() - started) / 1000
  console.log(
    `${name}: ${sent} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`
  )
  for (const [request, answer] of failures) console.log(`  ${answer}  ←  ${request}`)
  assert.equal(failures.size, 0, `${failures.size} failing requests (listed above)`)
}

/** Values every field of every body is set to in the sweep. */
const SWEEP_VALUES: unknown[] = [2 ** 31, 2 ** 63, '__RAW_1E400__', 'x'.repeat(3000), { a: 1 }]

test.group('Fuzz over the OpenAPI document', (group) => {
  group.each.timeout(90_000)

  let worlds: World[]
  let operations: Operation[]
  let components: Record<string, any>
  let readUntouched: () => Promise<{ status: number; etag: string | null; text: string }>
  let before: { status: number; etag: string | null; text: string }

  group.setup(async () => {
    await seedCatalog()
    const first = await makeWorld(true)
    // Several apps share the load so the per-app rate limit (1200/min) is rarely the answer.
    worlds = [first.w, (await makeWorld(false)).w, (await makeWorld(false)).w]
    const untouched = first.untouched!
    readUntouched = async () => {
      const response = await raw(
        `/v3/publicaciones/${untouched.adminMail}/${untouched.externalId}`,
        { headers: { Authorization: `Bearer ${first.w.token}` } }
      )
      return {
        status: response.status,
        etag: response.headers.get('etag'),
        text: await response.text(),
      }
    }
    before = await readUntouched()
    const document: any = await (await raw('/v3/openapi.json')).json()
    components = document.components.schemas
    operations = []
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete', 'options']) {
        const operation = item[method]
        if (!operation) continue
        operations.push({
          method: method.toUpperCase(),
          path,
          params: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
          body: operation.requestBody,
          public: Array.isArray(operation.security) && operation.security.length === 0,
        })
      }
    }
  })

  test(`${RUNS} drawn requests: no 5xx, every API error a problem document with its request id`, async ({
    assert,
  }) => {
    const started = Date.now()
    assert.equal(before.status, 200)
    assert.isAbove(operations.length, 40)
    const failures = new Map<string, string>()
    const statuses = new Map<number, number>()
    const hit = new Set<string>()
    let sent = 0
    await inParallel(fc.sample(plan, { seed: SEED, numRuns: RUNS }), async (draw) => {
      const request = build(operations, components, worlds, draw)
      if (!(await check(request, failures, statuses))) return
      sent += 1
      hit.add(`${request.method} ${operations[draw.op % operations.length].path}`)
    })
    report(
      assert,
      `fuzz (${hit.size} of ${operations.length} operations)`,
      sent,
      started,
      statuses,
      failures
    )
    assert.equal(hit.size, operations.length)
    assert.isAbove(sent, RUNS * 0.9)
  })

  test('every field of every body set to out-of-range numbers and wrong types: no 5xx', async ({
    assert,
  }) => {
    const started = Date.now()
    const failures = new Map<string, string>()
    const statuses = new Map<number, number>()
    let sent = 0
    let turn = 0
    for (const op of operations.filter((one) => ['POST', 'PUT', 'PATCH'].includes(one.method))) {
      const w = worlds[turn++ % worlds.length]
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => validPathValue(name, w))
      const valid = validBody(op, components, w)
      const cases = leafPaths(valid)
        .slice(1)
        .flatMap((leaf) => SWEEP_VALUES.map((value) => ({ leaf, value })))
      await inParallel(cases, async ({ leaf, value }) => {
        const request = {
          method: op.method,
          path,
          headers: {
            'Authorization': `Bearer ${tokenFor(op, w)}`,
            'Content-Type': 'application/json',
          },
          body: serialize(setAt(valid, leaf, value)),
          api: op.path.startsWith('/v3'),
        }
        if (await check(request, failures, statuses)) sent += 1
      })
    }
    report(assert, 'sweep', sent, started, statuses, failures)
    assert.isAbove(sent, 200)
  })

  test('an unknown member in every JSON body, top level and nested: 400 naming it, never 2xx/5xx (a sync row: its own result)', async ({
    assert,
  }) => {
    const failures = new Map<string, string>()
    const statuses = new Map<number, number>()
    const started = Date.now()
    let sent = 0
    let turn = 0
    const withBody = operations.filter((op) => op.body?.content?.['application/json'])
    assert.isAbove(withBody.length, 10)
    for (const op of withBody) {
      const w = worlds[turn++ % worlds.length]
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => validPathValue(name, w))
      const valid = validBody(op, components, w)
      // Beside the valid members: one unknown at the top and one inside each object member.
      const cases: Array<{ body: any; key: string }> = [
        { body: { ...valid, zzDesconocido: 1 }, key: 'zzDesconocido' },
        ...leafPaths(valid)
          .slice(1)
          .filter((leaf) => {
            const node = leaf.reduce((at: any, key) => at?.[key], valid)
            return node && typeof node === 'object' && !Array.isArray(node)
          })
          .map((leaf) => ({
            body: setAt(valid, [...leaf, 'zzDesconocido'], 1),
            key: [...leaf, 'zzDesconocido'].join('.'),
          })),
      ]
      for (const { body, key } of cases) {
        const response = await fetch(baseUrl() + path, {
          method: op.method,
          headers: {
            'Authorization': `Bearer ${tokenFor(op, w)}`,
            'Content-Type': 'application/json',
          },
          body: serialize(body),
        })
        sent += 1
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        const answer: any = await response.json().catch(() => null)
        // A stock sync's row is the worker's: its unknown members make that row Rechazada
        // (the single POST's Errors), the request is accepted (docs/design.md §15).
        if (`${op.method} ${op.path}` === SYNC_POST && key.startsWith('Publicaciones.')) {
          if (response.status !== 202)
            failures.set(`${op.method} ${op.path} ${key}`, `${response.status}, not 202`)
          continue
        }
        if (response.status !== 400 || !Object.keys(answer?.Errors ?? {}).includes(key))
          failures.set(
            `${op.method} ${op.path} ${key}`,
            `${response.status} ${JSON.stringify(answer?.Errors ?? answer).slice(0, 200)}`
          )
      }
    }
    report(assert, 'unknown members', sent, started, statuses, failures)
  })

  test(`${HOSTILE_CSV.length} hostile CSV bodies on the stock sync: a 4xx problem and no sync stored, or a 202 with the rows it holds`, async ({
    assert,
  }) => {
    const w = worlds[0]
    const path = `/v3/publicaciones/${w.adminMail}/sincronizaciones`
    const auth = { Authorization: `Bearer ${w.token}` }
    const stored = async () => {
      const listed: any = await (await raw(path, { headers: auth })).json()
      return listed._entries.length as number
    }
    const failures = new Map<string, string>()
    for (const csv of HOSTILE_CSV) {
      const count = await stored()
      // raw() checks every answer against the document (a 5xx is not in it): it throws then.
      let response: Response
      try {
        response = await raw(path + (csv.query ?? '?modo=Parcial&simular=true'), {
          method: 'POST',
          headers: { ...auth, 'Content-Type': csv.type ?? 'text/csv', ...csv.headers },
          body: csv.body,
        })
      } catch (error: any) {
        failures.set(csv.name, String(error?.message).split('\n').slice(0, 2).join(' '))
        continue
      }
      const text = await response.text()
      const type = response.headers.get('content-type') ?? ''
      const answer = `${response.status} ${type} ${text.slice(0, 300)}`
      const after = await stored()
      if (csv.accepted !== undefined) {
        const sync = response.status === 202 ? JSON.parse(text) : null
        if (
          !sync ||
          sync.Total !== csv.accepted ||
          !sync.Simulada ||
          !response.headers.get('location')
        )
          failures.set(csv.name, `expected 202 with Total ${csv.accepted}: ${answer}`)
        else if (after !== count + 1)
          failures.set(csv.name, `202 but ${after - count} syncs stored`)
        continue
      }
      let problem: any = null
      try {
        problem = JSON.parse(text)
      } catch {}
      if (
        response.status < 400 ||
        response.status >= 500 ||
        (csv.status && response.status !== csv.status)
      )
        failures.set(csv.name, `expected ${csv.status ?? '4xx'}: ${answer}`)
      else if (!type.startsWith('application/problem+json') || problem?.Status !== response.status)
        failures.set(csv.name, `not a problem document: ${answer}`)
      else if (problem.Extensions?.TraceId !== response.headers.get('x-request-id'))
        failures.set(csv.name, `TraceId is not the X-Request-Id: ${answer}`)
      else if (after !== count)
        failures.set(csv.name, `refused, yet ${after - count} sync(s) stored`)
    }
    for (const [name, failure] of failures) console.log(`  ${name}: ${failure}`)
    assert.equal(
      failures.size,
      0,
      `${failures.size} hostile CSV bodies answered wrongly (listed above)`
    )
  })

  test('the stock sync operations answer a well-formed request (JSON and CSV) with a 2xx the document describes', async ({
    assert,
  }) => {
    const w = worlds[1]
    const base = `/v3/publicaciones/${w.adminMail}/sincronizaciones`
    const auth = { Authorization: `Bearer ${w.token}` }
    const json = await raw(base, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(
        validBody(
          operations.find((op) => `${op.method} ${op.path}` === SYNC_POST)!,
          components,
          w
        )
      ),
    })
    assert.equal(json.status, 202, await json.clone().text())
    const csv = await raw(`${base}?modo=Parcial&simular=true`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/csv; charset=utf-8' },
      body: csvOf(CSV_HEADER, csvRow('FUZZ-CSV-1')),
    })
    assert.equal(csv.status, 202, await csv.clone().text())
    const id = ((await json.json()) as any).Id
    for (const path of [
      base,
      `${base}/${id}`,
      `${base}/${id}/resultados?resultado=Creada&pagina=1`,
    ]) {
      const read = await raw(path, { headers: auth })
      assert.equal(read.status, 200, path)
    }
    const sync = operations.filter((op) => op.path.includes('/sincronizaciones'))
    assert.lengthOf(sync, 4, 'the fuzz draws over the four sync operations')
    const post = sync.find((op) => op.method === 'POST')!
    assert.includeMembers(Object.keys(post.body.content), ['application/json', 'text/csv'])
  })

  test('a listing no request named is byte-identical afterwards (body and ETag)', async ({
    assert,
  }) => {
    const after = await readUntouched()
    assert.equal(after.status, 200)
    assert.equal(after.etag, before.etag)
    assert.equal(after.text, before.text)
  })
})

/*
 * The shapes that froze or crashed the web process (docs/design.md §25): deep
 * nesting, wide objects, forbidden member names, wide CSV headers, drawn per
 * operation with the same seed and sent to a web process started with the
 * production heap flags while a probe asks /health/live every 100 ms. Every
 * answer a 400 problem document naming the offence, every probe answered within
 * 1 s, the process alive at the end.
 */
type Shape =
  | { kind: 'deep'; levels: number }
  | { kind: 'wide'; members: number }
  | { kind: 'name'; name: string; nested: boolean }
  | { kind: 'long'; length: number }

const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ kind: fc.constant('deep' as const), levels: fc.integer({ min: 33, max: 150_000 }) }),
  fc.record({ kind: fc.constant('wide' as const), members: fc.integer({ min: 201, max: 50_000 }) }),
  fc.record({
    kind: fc.constant('name' as const),
    name: fc.constantFrom('__proto__', 'constructor', 'prototype'),
    nested: fc.boolean(),
  }),
  // An unknown member whose name is long: echoed cut to 64 characters and … (issue 33 follow-up item 2).
  fc.record({ kind: fc.constant('long' as const), length: fc.integer({ min: 65, max: 900_000 }) })
)

/** `valid`'s JSON text with the shape added as members; the key its 400 must name (or a pattern of `_`). */
function shaped(valid: unknown, drawn: Shape): { body: string; key: string; message: RegExp } {
  const text = serialize(valid)
  const add = (extra: string) => `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${extra}}`
  switch (drawn.kind) {
    case 'deep':
      return {
        body: add(`"zzDeep":${'['.repeat(drawn.levels)}${']'.repeat(drawn.levels)}`),
        key: '_',
        message: /más de 32 niveles/,
      }
    case 'wide':
      return {
        body: add(
          `"zzWide":{${Array.from({ length: drawn.members }, (_, i) => `"m${i}":0`).join(',')}}`
        ),
        key: 'zzWide',
        message: /más de 200 campos/,
      }
    case 'name':
      return drawn.nested
        ? {
            body: add(`"zzNested":{"${drawn.name}":{"x":1}}`),
            key: `zzNested.${drawn.name}`,
            message: /no se admite como campo/,
          }
        : {
            body: add(`"${drawn.name}":{"x":1}`),
            key: drawn.name,
            message: /no se admite como campo/,
          }
    case 'long':
      return {
        body: add(`"${'n'.repeat(drawn.length)}":1`),
        key: `${'n'.repeat(64)}…`,
        message: /^(?!.*n{65})/,
      }
  }
}

test.group('Fuzz: hostile shapes under the production heap flags', (group) => {
  group.each.timeout(180_000)

  let web: Awaited<ReturnType<typeof startWebProcess>>
  let worlds: World[]
  let operations: Operation[]
  let components: Record<string, any>

  group.setup(async () => {
    await seedCatalog()
    worlds = [(await makeWorld(false)).w, (await makeWorld(false)).w]
    web = await startWebProcess({ nodeFlags: WEB_HEAP_FLAGS })
    const document: any = await (await fetch(`${web.url}/v3/openapi.json`)).json()
    components = document.components.schemas
    operations = []
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const method of ['post', 'put', 'patch']) {
        const operation = item[method]
        if (!operation?.requestBody?.content?.['application/json']) continue
        operations.push({
          method: method.toUpperCase(),
          path,
          params: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
          body: operation.requestBody,
          public: Array.isArray(operation.security) && operation.security.length === 0,
        })
      }
    }
    return () => web.stop()
  })

  /** Probes /health/live every 100 ms until stopped: the slowest answer (ms) and the failures. */
  function probe() {
    let running = true
    let slowest = 0
    let failed = 0
    const loop = (async () => {
      while (running) {
        const started = performance.now()
        try {
          const response = await fetch(`${web.url}/health/live`, {
            signal: AbortSignal.timeout(5000),
          })
          await response.arrayBuffer()
          if (response.status !== 200) failed++
        } catch {
          failed++
        }
        slowest = Math.max(slowest, performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    return async () => {
      running = false
      await loop
      return { slowest: Math.round(slowest), failed }
    }
  }

  test('deep, wide and forbidden-name JSON bodies on every JSON operation: 400 naming them, the process never stalls', async ({
    assert,
  }) => {
    const failures = new Map<string, string>()
    const statuses = new Map<number, number>()
    const started = Date.now()
    const stop = probe()
    const draws = fc.sample(fc.tuple(fc.nat(), shape), { seed: SEED, numRuns: 240 })
    let sent = 0
    // One at a time: the probe measures what one hostile request does to the process.
    await inParallel(
      draws,
      async ([index, drawn]) => {
        const op = operations[index % operations.length]
        const w = worlds[index % worlds.length]
        const valid = validBody(op, components, w)
        if (valid === null || typeof valid !== 'object' || Array.isArray(valid)) return
        const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => validPathValue(name, w))
        const { body, key, message } = shaped(valid, drawn)
        const sync = `${op.method} ${op.path}` === SYNC_POST
        const response = await fetch(web.url + path, {
          method: op.method,
          headers: {
            'Authorization': `Bearer ${tokenFor(op, w)}`,
            'Content-Type': 'application/json',
          },
          body,
        })
        sent += 1
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        const text = await response.text()
        const answer: any = (() => {
          try {
            return JSON.parse(text)
          } catch {
            return null
          }
        })()
        const label = `${op.method} ${op.path} ${JSON.stringify(drawn)}`
        // However long the hostile name, the answer echoes at most 64 characters of it.
        if (text.length > 20_000) failures.set(label, `an answer of ${text.length} characters`)
        // Beyond 1 MiB an ordinary body is a 413 before it is parsed.
        if (body.length > 1024 * 1024 && !sync) {
          if (response.status !== 413) failures.set(label, `${response.status}, not 413`)
          return
        }
        // A stock sync names its top-level unknown member (`zzNested`) first.
        // Its reader refuses a member name past 255 characters as a whole (keyed `_`).
        const expected =
          sync && key.startsWith('zzNested.')
            ? 'zzNested'
            : sync && drawn.kind === 'long' && drawn.length > 255
              ? '_'
              : key
        const messages: string[] = answer?.Errors?.[expected] ?? []
        if (
          response.status !== 400 ||
          !(response.headers.get('content-type') ?? '').startsWith('application/problem+json') ||
          !(sync && expected === 'zzNested'
            ? messages.length > 0
            : messages.some((m) => message.test(m)))
        )
          failures.set(
            label,
            `${response.status} ${JSON.stringify(answer?.Errors ?? answer).slice(0, 200)}`
          )
      },
      1
    )
    const seen = await stop()
    report(
      assert,
      `hostile shapes (${operations.length} operations)`,
      sent,
      started,
      statuses,
      failures
    )
    console.log(`  slowest /health/live answer: ${seen.slowest} ms`)
    assert.isAbove(sent, 150)
    assert.equal(seen.failed, 0)
    assert.isBelow(seen.slowest, 1000)
    assert.isTrue(web.alive(), web.stderr())
  })

  test('wide and forbidden CSV headers on the stock sync: 400 keyed Linea.1, short, the process never stalls', async ({
    assert,
  }) => {
    const w = worlds[0]
    const path = `/v3/publicaciones/${w.adminMail}/sincronizaciones?modo=Parcial&simular=true`
    const stop = probe()
    const draws = fc.sample(
      fc.oneof(
        fc.integer({ min: 1, max: 200_000 }).map((extra) => ({ extra, name: '' })),
        fc
          .constantFrom('__proto__', 'constructor', 'prototype', 'Precio.__proto__')
          .map((name) => ({
            extra: 0,
            name,
          }))
      ),
      { seed: SEED, numRuns: 30 }
    )
    const failures = new Map<string, string>()
    for (const { extra, name } of draws) {
      const columns = name
        ? [...CSV_HEADER.split(','), name]
        : [...CSV_HEADER.split(','), ...Array.from({ length: extra }, (_, i) => `c${i}`)]
      const body = csvOf(columns.join(','), csvRow('FUZZ-WIDE-1') + ','.repeat(columns.length - 8))
      const response = await fetch(web.url + path, {
        method: 'POST',
        headers: { 'Authorization': `Bearer ${w.token}`, 'Content-Type': 'text/csv' },
        body,
      })
      const text = await response.text()
      const label = name || `${columns.length} columns (${body.length} bytes)`
      let errors: any = null
      try {
        errors = JSON.parse(text).Errors
      } catch {}
      if (response.status !== 400 || !errors?.['Linea.1'] || text.length > 4000)
        failures.set(label, `${response.status} ${text.slice(0, 200)}`)
      else if (name && !errors['Linea.1'][0].includes(`«${name}»`))
        failures.set(label, `does not name it: ${text.slice(0, 200)}`)
    }
    const seen = await stop()
    for (const [label, failure] of failures) console.log(`  ${label}: ${failure}`)
    console.log(`  ${draws.length} CSV headers; slowest /health/live answer: ${seen.slowest} ms`)
    assert.equal(failures.size, 0)
    assert.equal(seen.failed, 0)
    assert.isBelow(seen.slowest, 1000)
    assert.isTrue(web.alive(), web.stderr())
  })
})
