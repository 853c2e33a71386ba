/*
 * The inventory of `stock:sync` (docs/design.md §15) read from a file by the
 * API's own readers, streamed: a `.csv` file is the API's CSV body; any other
 * is JSON, either an array of rows or the POST's body (`{Publicaciones,
 * Bajas}`). The command's flags are the request's options; they go in front
 * of the file's bytes, so a Modo, Simular or ConfirmarBajas the file names
 * itself is read after them and must agree with them.
 */
import { extname } from 'node:path'
import {
  inventoryRefusal,
  readCsvInventory,
  readJsonInventory,
  type Inventory,
} from '#listings/validators/inventory'

export type FileOptions = Pick<Inventory, 'mode' | 'simulate' | 'confirmArchives'>

const MODE_WIRE = { full: 'Completa', partial: 'Parcial' } as const

const FLAG_OF: Record<keyof FileOptions, [string, string]> = {
  mode: ['Modo', '--completa'],
  simulate: ['Simular', '--simular'],
  confirmArchives: ['ConfirmarBajas', '--confirmar-bajas'],
}

export async function readInventoryFile(
  name: string,
  chunks: AsyncIterable<Buffer>,
  options: FileOptions
): Promise<Inventory> {
  if (extname(name).toLowerCase() === '.csv') {
    return readCsvInventory(chunks, {
      modo: MODE_WIRE[options.mode],
      simular: options.simulate,
      confirmarBajas: options.confirmArchives,
    })
  }
  const inventory = await readJsonInventory(asRequestBody(chunks, options))
  const errors: Record<string, string[]> = {}
  for (const key of Object.keys(FLAG_OF) as (keyof FileOptions)[]) {
    if (inventory[key] === options[key]) continue
    const [member, flag] = FLAG_OF[key]
    const value = key === 'mode' ? MODE_WIRE[inventory.mode] : String(inventory[key])
    const flagged = key === 'mode' ? options.mode === 'full' : options[key]
    errors[member] = [
      `The file says ${member} ${value}; the command was run ${flagged ? 'with' : 'without'} ${flag}: make them agree.`,
    ]
  }
  if (Object.keys(errors).length > 0) throw new FlagsDisagree(errors)
  return inventory
}

/** The file names a Modo, Simular or ConfirmarBajas the command's flags do not. */
class FlagsDisagree extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('The file and the flags disagree')
  }
}

/** A refusal of the request as a whole, as lines of `key: message`; null for any other error. */
export function requestErrors(error: unknown): string | null {
  const errors = error instanceof FlagsDisagree ? error.errors : inventoryRefusal(error)
  if (!errors) return null
  return Object.entries(errors)
    .flatMap(([key, messages]) => messages.map((message) => `  ${key}: ${message}`))
    .join('\n')
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d
const BOM = [0xef, 0xbb, 0xbf]

/** Index of the first byte at or after `from` that is not JSON whitespace, or -1. */
function significant(buffer: Buffer, from: number) {
  for (let index = from; index < buffer.length; index++) {
    if (!isSpace(buffer[index])) return index
  }
  return -1
}

/**
 * The file as the POST's body: the options first, then the file's members
 * (an object) or its rows as `Publicaciones` (an array). Only the first
 * significant bytes are held back; the rest streams through untouched.
 */
async function* asRequestBody(
  chunks: AsyncIterable<Buffer>,
  options: FileOptions
): AsyncGenerator<Buffer> {
  const head = `{"Modo":"${MODE_WIRE[options.mode]}","Simular":${options.simulate},"ConfirmarBajas":${options.confirmArchives}`
  let pending = Buffer.alloc(0)
  let through = false
  let closeArray = false
  for await (const chunk of chunks) {
    if (through) {
      yield chunk
      continue
    }
    pending = Buffer.concat([pending, chunk])
    const bom = BOM.every((byte, index) => pending[index] === byte) ? BOM.length : 0
    const first = significant(pending, bom)
    if (first === -1) continue
    if (pending[first] === 0x5b) {
      yield Buffer.from(`${head},"Publicaciones":`)
      yield pending.subarray(first)
      closeArray = true
    } else if (pending[first] === 0x7b) {
      const second = significant(pending, first + 1)
      if (second === -1) continue
      yield Buffer.from(pending[second] === 0x7d ? head : `${head},`)
      yield pending.subarray(first + 1)
    } else {
      // Not JSON this command understands: the reader refuses it as it would a body.
      yield pending
    }
    through = true
  }
  if (closeArray) yield Buffer.from('}')
  else if (!through) {
    // An empty (or blank) file is an inventory of nothing; an unfinished `{` is not JSON.
    const bom = BOM.every((byte, index) => pending[index] === byte) ? BOM.length : 0
    yield significant(pending, bom) === -1 ? Buffer.from(`${head}}`) : pending
  }
}
