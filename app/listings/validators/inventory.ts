/*
 * Wire → domain for a stock sync (docs/design.md §15): the inventory read as
 * it arrives, JSON or CSV, each row kept as its JSON text (one copy of the
 * body, never the whole body as one buffer or string). Errors of the request
 * as a whole are 400s keyed `Publicaciones`, `Modo`, or `Linea.{n}` for CSV;
 * a row's own field errors are the worker's (that row ends `Rechazada`).
 */
import { createHash } from 'node:crypto'
import { isUtf8 } from 'node:buffer'
import { Readable, pipeline } from 'node:stream'
import { CsvError, parse as parseCsv } from 'csv-parse'
import { TokenParser, Tokenizer, TokenType } from '@streamparser/json'
import type { ParsedTokenInfo } from '@streamparser/json/utils/types/parsedTokenInfo.js'
import vine, { errors as vineErrors } from '@vinejs/vine'
import { Problem, type ProblemErrors } from '#core/http/problem'
import { MAX_DEPTH, MAX_MEMBERS, checkValues, limitMessages } from '#core/http/input_gate'
import { errorMap } from '#core/http/error_map'
import { UNKNOWN_MEMBERS_DETAIL, unknownMemberErrors } from '#core/http/unknown_members'
import { unknownMember } from '#core/services/body_members'
import { oneOf } from '#core/http/rules'
import type { SyncMode } from '#listings/stores/sync_store'

/** Rows (and Bajas) of one sync. */
export const MAX_ROWS = 5000
/** Bytes of one sync's body (413 beyond). */
export const MAX_BYTES = 20 * 1024 * 1024

export type InventoryRow = { externalId: string | null; payload: string }

export type Inventory = {
  mode: SyncMode
  simulate: boolean
  confirmArchives: boolean
  rows: InventoryRow[]
  archives: string[]
  /** SHA-256 of the body's bytes: what an Idempotency-Key compares. */
  bodyHash: string
}

const TOP_LEVEL = ['Modo', 'Simular', 'ConfirmarBajas', 'Publicaciones', 'Bajas']

const optionsValidator = vine.create({
  Modo: vine.string().use(oneOf(['Completa', 'Parcial'])),
  Simular: vine.boolean({ strict: true }).optional(),
  ConfirmarBajas: vine.boolean({ strict: true }).optional(),
  Bajas: vine
    .array(
      vine
        .string()
        .minLength(2)
        .maxLength(255)
        .regex(/^[A-Za-z0-9._~-]+$/)
    )
    .maxLength(MAX_ROWS)
    .optional(),
})

/** The CSV's options, in the query string (`?modo=&simular=&confirmarBajas=`). */
export const csvQueryValidator = vine.create({
  modo: vine.string().use(oneOf(['Completa', 'Parcial'])),
  simular: vine.boolean().optional(),
  confirmarBajas: vine.boolean().optional(),
})

export type CsvQuery = Awaited<ReturnType<typeof csvQueryValidator.validate>>

const MODE_OF = { Completa: 'full', Parcial: 'partial' } as const

/** Longest ExternalId a row keeps aside (the column's); a longer one is the row's own error. */
const EXTERNAL_ID_MAX = 255

function rowOf(value: Record<string, unknown>): InventoryRow {
  const externalId =
    typeof value.ExternalId === 'string' && value.ExternalId.length <= EXTERNAL_ID_MAX
      ? value.ExternalId
      : null
  return { externalId, payload: JSON.stringify(value) }
}

/**
 * The readers' refusal of an inventory as a whole (what the POST answers 400,
 * 413 or 415 with), as its `Errors`; null for any other error. For a reader
 * that is no request (stock:sync), which says it in its own words.
 */
export function inventoryRefusal(error: unknown): ProblemErrors | null {
  if (error instanceof Problem) {
    const errors = error.options.errors ?? {}
    return Object.keys(errors).length > 0 ? errors : { _: [error.message] }
  }
  if (error instanceof vineErrors.E_VALIDATION_ERROR) {
    const errors = errorMap()
    for (const { field, message } of error.messages as { field: string; message: string }[])
      (errors[field] ??= []).push(message)
    return errors
  }
  return null
}

function refuse(errors: ProblemErrors, detail?: string): never {
  throw Problem.badRequest(errors, detail)
}

const tooMany = () =>
  refuse({ Publicaciones: [`Una sincronización admite hasta ${MAX_ROWS} publicaciones.`] })

/** Text and numbers a row may not hold (the input gate's): the whole sync is refused. */
function hostile(row: unknown, key: (path: string) => string) {
  const errors = errorMap()
  // Forbidden member names are the row's own result (Rechazada, keyed by the name).
  checkValues(row, errors, '', { names: false })
  const keyed = errorMap()
  for (const [path, messages] of Object.entries(errors)) keyed[key(path)] = messages
  if (Object.keys(keyed).length > 0) refuse(keyed)
}

/** Longest string (or CSV cell) a sync body holds: its longest fields (Descripcion, a photo URL) take 2 000. */
export const MAX_STRING = 8192
/** Longest CSV cell that holds a list (`Fotos`, `DatosTecnicosCustom`: 50 entries each). */
export const MAX_LIST_CELL = 128 * 1024
/** Longest member name: no field comes near. */
export const MAX_NAME = 255
/** Items of a list inside a row (a row's lists hold at most 50). */
export const MAX_ITEMS = 200

const keyOf = (path: (string | number)[]) => path.join('.') || '_'

const limits = {
  string: (key: string) => `El campo ${key} supera los ${MAX_STRING} caracteres.`,
  name: (key: string) =>
    `El nombre de campo ${key.slice(0, 40)}… supera los ${MAX_NAME} caracteres.`,
  items: (key: string, max: number) => `La lista ${key} tiene más de ${max} elementos.`,
}

/**
 * The body watched token by token, before the parser builds anything
 * (docs/design.md §25): nesting beyond MAX_DEPTH, an object beyond MAX_MEMBERS,
 * a list beyond its bound, a string or member name beyond its limit are
 * refused at the token that crosses the line, so the work stays linear in the
 * bytes (the parser walks its stack on every value it closes). The top level's
 * members are noted too: the parser keeps nothing it does not emit, so the
 * members it was not asked for (unknown ones, a scalar `Publicaciones`) are
 * seen here.
 */
function watchTokens(forward: (info: ParsedTokenInfo) => void) {
  const seen = { object: undefined as boolean | undefined, members: new Map<string, TokenType>() }
  // Per open object or list: whether it is an object, and its members (items) so far.
  const objects: boolean[] = []
  const counts: number[] = []
  // The path to the value being read (member names, item indexes), for the 400's key.
  const path: (string | number)[] = []
  let expectKey = false
  let awaitingValue = false
  let key: string | undefined

  // A value starts: count it as its list's item.
  const value = () => {
    const depth = objects.length
    if (depth === 0 || objects[depth - 1]) return
    const index = counts[depth - 1]++
    const max = depth <= 2 ? MAX_ROWS : MAX_ITEMS
    if (index >= max) {
      if (path[0] === 'Publicaciones' && depth === 2) tooMany()
      refuse({ [keyOf(path)]: [limits.items(keyOf(path), max)] })
    }
    path.push(index)
  }
  // A value ended: its member name or index leaves the path.
  const ended = () => {
    if (objects.length > 0) path.pop()
  }

  const watch = (info: ParsedTokenInfo) => {
    if (awaitingValue) {
      seen.members.set(key!, info.token)
      awaitingValue = false
    }
    switch (info.token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        if (objects.length === 0) seen.object = info.token === TokenType.LEFT_BRACE
        value()
        if (objects.length === MAX_DEPTH) refuse({ _: [limitMessages.depth()] })
        objects.push(info.token === TokenType.LEFT_BRACE)
        counts.push(0)
        expectKey = info.token === TokenType.LEFT_BRACE
        break
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        objects.pop()
        counts.pop()
        ended()
        expectKey = false
        break
      case TokenType.COMMA:
        expectKey = objects[objects.length - 1] === true
        break
      case TokenType.COLON:
        awaitingValue = objects.length === 1
        break
      case TokenType.STRING:
        if (expectKey) {
          expectKey = false
          const name = info.value as string
          const depth = objects.length
          if (++counts[depth - 1] > MAX_MEMBERS) {
            refuse({ [keyOf(path)]: [limitMessages.members(path.join('.'))] })
          }
          if (name.length > MAX_NAME) refuse({ [keyOf(path)]: [limits.name(name)] })
          if (depth === 1) key = name
          path.push(name)
          break
        }
        value()
        if ((info.value as string).length > MAX_STRING) {
          refuse({ [keyOf(path)]: [limits.string(keyOf(path))] })
        }
        ended()
        break
      default:
        if (objects.length === 0) seen.object = false
        value()
        ended()
    }
    forward(info)
  }
  return { seen, watch }
}

/** A JSON inventory `{Modo, Simular, ConfirmarBajas, Publicaciones: [row…], Bajas}`. */
export async function readJsonInventory(chunks: AsyncIterable<Buffer>): Promise<Inventory> {
  const hash = createHash('sha256')
  const rows: InventoryRow[] = []
  const top: Record<string, unknown> = {}
  let notRows = false
  // A tokenizer and a token parser wired as JSONParser wires them, with the watch between.
  const tokenizer = new Tokenizer()
  const parser = new TokenParser({
    paths: [
      '$.Publicaciones.*',
      ...TOP_LEVEL.filter((name) => name !== 'Publicaciones').map((name) => `$.${name}`),
    ],
    keepStack: false,
  })
  const { seen, watch } = watchTokens(parser.write.bind(parser))
  tokenizer.onToken = watch
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end()
  }
  parser.onError = tokenizer.error.bind(tokenizer)
  parser.onEnd = () => {
    if (!tokenizer.isEnded) tokenizer.end()
  }
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length === 1) {
      top[key as string] = value
      return
    }
    if (
      typeof key !== 'number' ||
      value === null ||
      typeof value !== 'object' ||
      Array.isArray(value)
    ) {
      notRows = true
      return
    }
    if (rows.length === MAX_ROWS) tooMany()
    hostile(value, (path) => `Publicaciones.${rows.length}${path === '_' ? '' : `.${path}`}`)
    rows.push(rowOf(value as Record<string, unknown>))
  }
  try {
    for await (const chunk of chunks) {
      hash.update(chunk)
      tokenizer.write(chunk)
    }
    if (!tokenizer.isEnded) tokenizer.end()
  } catch (error) {
    if (error instanceof Problem) throw error
    refuse({ _: ['El cuerpo no es JSON válido.'] }, 'El cuerpo no es JSON válido.')
  }
  if (seen.object !== true) refuse({ _: ['El cuerpo debe ser un objeto JSON.'] })
  const unknown = [...seen.members.keys()].filter((name) => !TOP_LEVEL.includes(name))
  if (unknown.length > 0) {
    throw Problem.badRequest(
      unknownMemberErrors(unknown.map((path) => unknownMember(path, TOP_LEVEL))),
      UNKNOWN_MEMBERS_DETAIL
    )
  }
  const sentRows = seen.members.get('Publicaciones')
  if (notRows || (sentRows !== undefined && sentRows !== TokenType.LEFT_BRACKET)) {
    refuse({ Publicaciones: ['Publicaciones debe ser una lista de objetos.'] })
  }
  const options = await validateOptions(top)
  return finish(options, rows, hash.digest('hex'))
}

async function validateOptions(top: Record<string, unknown>) {
  const [error, options] = await optionsValidator.tryValidate(top)
  if (error) throw error
  return {
    mode: MODE_OF[options.Modo as keyof typeof MODE_OF],
    simulate: options.Simular ?? false,
    confirmArchives: options.ConfirmarBajas ?? false,
    archives: options.Bajas ?? [],
  }
}

function finish(
  options: Omit<Inventory, 'rows' | 'bodyHash'>,
  rows: InventoryRow[],
  bodyHash: string
): Inventory {
  if (options.mode === 'full' && options.archives.length > 0) {
    refuse({
      Bajas: [
        'Bajas solo se admite con Modo Parcial: una sincronización Completa da de baja lo que no envía.',
      ],
    })
  }
  if (options.mode === 'full' && rows.length === 0) {
    refuse({
      Publicaciones: [
        'Una sincronización Completa sin publicaciones archivaría todo el stock: envíe al menos una.',
      ],
    })
  }
  if (rows.length + options.archives.length === 0) {
    refuse({ Publicaciones: ['Envíe al menos una publicación o una baja.'] })
  }
  if (rows.length + options.archives.length > MAX_ROWS) tooMany()
  return { ...options, rows, bodyHash }
}

/*
 * CSV (RFC 4180): a header row of wire names, dotted for nested members
 * (`Precio.Importe`, `Locacion.Region`); `Fotos` is one cell of URLs separated
 * by `|`, `DatosTecnicosCustom` one cell of `Nombre=Valor` pairs separated by
 * `|`. An empty cell leaves the field out. Cells of number and boolean fields
 * become numbers and booleans when they read as such; otherwise they stay
 * text and the row is refused as the JSON row would be.
 */
const NUMBERS = new Set([
  'VersionYear',
  'Kilometraje',
  'Precio.Importe',
  'Adelanto.Importe',
  'Cuota.Importe',
])
const BOOLEANS = new Set(['Activa', 'AplicaCertificadoGarantiaUsado'])
export const CSV_COLUMNS = [
  'ExternalId',
  'Marca',
  'Modelo',
  'Version',
  'VersionYear',
  'Kilometraje',
  'Transmision',
  'Propulsion',
  'RefStock',
  'Activa',
  'Exposicion',
  'OperadorResponsable',
  'Color',
  'Descripcion',
  'DatosTecnicosCustom',
  'Precio.Moneda',
  'Precio.Importe',
  'Adelanto.Moneda',
  'Adelanto.Importe',
  'Cuota.Moneda',
  'Cuota.Importe',
  'Fotos',
  'AplicaCertificadoGarantiaUsado',
  'Locacion.Region',
  'Locacion.Ciudad',
  'Locacion.Direccion',
  'Telefono',
]

function cellValue(column: string, cell: string): unknown {
  if (NUMBERS.has(column) && /^-?\d+(\.\d+)?$/.test(cell.trim())) return Number(cell.trim())
  if (BOOLEANS.has(column)) {
    const word = cell.trim().toLowerCase()
    if (word === 'true') return true
    if (word === 'false') return false
  }
  if (column === 'Fotos')
    return cell
      .split('|')
      .map((url) => url.trim())
      .filter(Boolean)
  if (column === 'DatosTecnicosCustom') {
    return cell
      .split('|')
      .filter((pair) => pair.trim())
      .map((pair) => {
        const equals = pair.indexOf('=')
        return equals === -1
          ? { Nombre: pair.trim(), Valor: '' }
          : { Nombre: pair.slice(0, equals).trim(), Valor: pair.slice(equals + 1).trim() }
      })
  }
  return cell
}

function objectOf(header: string[], record: string[]): Record<string, unknown> {
  const row: Record<string, any> = {}
  header.forEach((column, index) => {
    const cell = record[index]
    if (cell === undefined || cell === '') return
    const value = cellValue(column, cell)
    const dot = column.indexOf('.')
    if (dot === -1) row[column] = value
    else (row[column.slice(0, dot)] ??= {})[column.slice(dot + 1)] = value
  })
  return row
}

/** Bytes from the first one past ASCII that decide a CSV's encoding (or up to the body's end). */
export const ENCODING_WINDOW = 4096

/**
 * The decoder of a CSV whose first byte past ASCII starts `bytes`: UTF-8 when
 * the window's bytes are UTF-8, else Windows-1252 (as dealer systems often
 * export). Decided on a fixed window of the body, never on how it was chunked.
 */
function decoderFor(bytes: Buffer, complete: boolean) {
  const window = bytes.subarray(0, ENCODING_WINDOW)
  let end = window.length
  if (!complete || bytes.length > ENCODING_WINDOW) {
    // A sequence cut at the window's end is not evidence either way.
    let continuation = 0
    while (continuation < 3 && end > 0 && (window[end - 1] & 0xc0) === 0x80) {
      end--
      continuation++
    }
    if (end > 0 && window[end - 1] >= 0xc0) end--
    else end += continuation
  }
  return isUtf8(window.subarray(0, end))
    ? new TextDecoder('utf-8', { fatal: true })
    : new TextDecoder('windows-1252')
}

/** The bytes as text: ASCII as it comes, then the decoder a fixed window decides. */
async function* decoded(chunks: AsyncIterable<Buffer>, hash: ReturnType<typeof createHash>) {
  let decoder: InstanceType<typeof globalThis.TextDecoder> | null = null
  // From the first byte past ASCII, held until the window is full.
  let held: Buffer[] = []
  let heldBytes = 0
  for await (const chunk of chunks) {
    hash.update(chunk)
    if (decoder) {
      yield decoder.decode(chunk, { stream: true })
      continue
    }
    if (heldBytes === 0) {
      const first = chunk.findIndex((byte) => byte >= 0x80)
      if (first === -1) {
        yield chunk.toString('latin1')
        continue
      }
      if (first > 0) yield chunk.toString('latin1', 0, first)
      held.push(chunk.subarray(first))
      heldBytes += chunk.length - first
    } else {
      held.push(chunk)
      heldBytes += chunk.length
    }
    if (heldBytes >= ENCODING_WINDOW) {
      const bytes = Buffer.concat(held)
      held = []
      decoder = decoderFor(bytes, false)
      yield decoder.decode(bytes, { stream: true })
    }
  }
  if (!decoder && heldBytes > 0) {
    const bytes = Buffer.concat(held)
    decoder = decoderFor(bytes, true)
    yield decoder.decode(bytes, { stream: true })
  }
  if (decoder) yield decoder.decode()
}

/** A CSV line's bound (csv-parse counts it as it reads): every cell at its longest. */
const MAX_RECORD = 512 * 1024
const LIST_COLUMNS = new Set(['Fotos', 'DatosTecnicosCustom'])
const KNOWN_COLUMNS: ReadonlySet<string> = new Set(CSV_COLUMNS)

/** The header row's refusals: more columns than a sync knows at once; else unknown and repeated ones (≤ 27). */
function checkHeader(header: string[], line: string) {
  if (header.length > CSV_COLUMNS.length) {
    refuse({
      [line]: [
        `El encabezado tiene ${header.length} columnas; una sincronización conoce ${CSV_COLUMNS.length}.`,
      ],
    })
  }
  hostile(header, () => line)
  const unknown = header.filter((name) => !KNOWN_COLUMNS.has(name))
  const named = new Set<string>()
  const repeated = header.filter((name) => named.size === named.add(name).size)
  if (unknown.length > 0 || repeated.length > 0) {
    refuse({
      [line]: [
        ...unknown.map(
          (name) => `La columna «${name.slice(0, MAX_NAME)}» no es un campo de la publicación.`
        ),
        ...[...new Set(repeated)].map(
          (name) => `La columna «${name.slice(0, MAX_NAME)}» está repetida.`
        ),
      ],
    })
  }
}

/** A cell beyond its column's limit refuses the sync (the line's key). */
function checkCells(header: string[], record: string[], line: string) {
  for (const [index, cell] of record.entries()) {
    const column = header[index]
    const max = LIST_COLUMNS.has(column) ? MAX_LIST_CELL : MAX_STRING
    if (cell.length > max) {
      refuse({ [line]: [`La columna ${column} supera los ${max} caracteres.`] })
    }
  }
}

/** A CSV inventory; its options come from the query string. */
export async function readCsvInventory(
  chunks: AsyncIterable<Buffer>,
  query: CsvQuery
): Promise<Inventory> {
  const hash = createHash('sha256')
  const parser = parseCsv({
    bom: true,
    info: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
    max_record_size: MAX_RECORD,
  })
  pipeline(Readable.from(decoded(chunks, hash)), parser, () => {})
  let header: string[] | undefined
  const rows: InventoryRow[] = []
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[]
      info: { lines: number }
    }>) {
      const line = `Linea.${info.lines}`
      if (!header) {
        header = record.map((name) => name.trim())
        checkHeader(header, line)
        continue
      }
      if (rows.length === MAX_ROWS) tooMany()
      checkCells(header, record, line)
      hostile(record, () => line)
      rows.push(rowOf(objectOf(header, record)))
    }
  } catch (error: any) {
    if (error instanceof Problem) throw error
    if (error?.code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      refuse({ _: ['El CSV no es UTF-8 válido ni Windows-1252 de principio a fin.'] })
    }
    // Every csv-parse error is the CSV's (INVALID_OPENING_QUOTE has no CSV_ prefix).
    if (error instanceof CsvError) {
      const { lines, info } = error as { lines?: number; info?: { lines?: number } }
      const line = lines ?? info?.lines ?? 1
      if (error.code === 'CSV_MAX_RECORD_SIZE') {
        refuse({ [`Linea.${line}`]: [`La línea supera los ${MAX_RECORD / 1024} KiB.`] })
      }
      refuse({ [`Linea.${line}`]: [`El CSV no se pudo leer: ${error.message}`] })
    }
    throw error
  }
  if (!header) refuse({ 'Linea.1': ['El CSV no tiene la fila de encabezados.'] })
  const options = {
    mode: MODE_OF[query.modo as keyof typeof MODE_OF],
    simulate: query.simular ?? false,
    confirmArchives: query.confirmarBajas ?? false,
    archives: [],
  }
  // The query says what a JSON body's Modo, Simular and ConfirmarBajas say: the same bytes with
  // another query are another request, never a replay of it under one Idempotency-Key.
  hash.update(JSON.stringify(['query', options.mode, options.simulate, options.confirmArchives]))
  return finish(options, rows, hash.digest('hex'))
}
