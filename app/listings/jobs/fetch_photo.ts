/*
 * `photos.fetch`: one photo of a listing (docs/design.md §8). Idempotent: a photo
 * that is gone (the list was replaced) or already settled is left alone, and
 * the final UPDATE only applies to a still-pending row. Finishing a photo
 * bumps the listing's revision, so its ETag changes.
 */
import { randomUUID } from 'node:crypto'
import { chmod, lstat, mkdir, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from '@adonisjs/core'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { outbound, OutboundError } from '#core/outbound/http_client'
import { PHOTOS_FETCH_SETTINGS, type PhotoFetchData } from '#listings/queues'
import {
  MAX_INPUT_PIXELS,
  MIN_HEIGHT,
  MIN_WIDTH,
  warmUpPhotoCodec,
  type PhotoRejection,
} from '#listings/services/process_photo'
import KeepPhoto from '#listings/services/keep_photo'
import SettlePhoto from '#listings/services/settle_photo'
import ListingPhotoStore, { type PhotoOutcome } from '#listings/stores/listing_photo_store'

/**
 * Downloads are written here, one file per try, removed when the try ends. A
 * photo is then never held in the worker's memory, and libjpeg can decode it
 * at a fraction of its size (services/process_photo.ts).
 */
export const DOWNLOADS_DIR = join(tmpdir(), 'listing-photo-downloads')
/** A file older than this was left by a worker that died mid-try (a try lasts at most TIMEOUT_MS and a decode). */
const LEFTOVER_MS = 60 * 60 * 1000

/**
 * `path` as a folder only this user can open, made if missing. In a shared
 * temporary folder, one made by someone else (or a link put in its place) would
 * let them read a download or swap it between its check and its decoding.
 */
export async function privateFolder(path: string) {
  await mkdir(path, { recursive: true, mode: 0o700 })
  const info = await lstat(path)
  if (!info.isDirectory() || info.uid !== process.getuid?.()) {
    throw new Error(`${path} is not a folder of this user: photo downloads refuse to use it`)
  }
  if ((info.mode & 0o077) !== 0) await chmod(path, 0o700)
  return path
}

/** Removes the downloads left by dead workers; run when a worker starts working `photos.fetch`. */
export async function sweepDownloads(now = Date.now()) {
  await privateFolder(DOWNLOADS_DIR)
  for (const name of await readdir(DOWNLOADS_DIR)) {
    const file = join(DOWNLOADS_DIR, name)
    const modified = await stat(file).then(
      (info) => info.mtimeMs,
      () => now
    )
    if (now - modified > LEFTOVER_MS) await rm(file, { force: true })
  }
}

export const MAX_BYTES = 15 * 1024 * 1024
export const TIMEOUT_MS = 20_000
export const MAX_REDIRECTS = 3

/** Reasons recorded for a download that can never succeed. */
const DOWNLOAD_REASONS: Record<string, string> = {
  bad_url: 'La URL de la foto no es válida.',
  bad_scheme: 'La URL de la foto debe ser http o https.',
  private_address: 'La URL de la foto apunta a una dirección que no es pública.',
  too_large: `La foto supera el máximo de ${MAX_BYTES / 1024 / 1024} MiB.`,
  too_many_redirects: `La URL de la foto redirige más de ${MAX_REDIRECTS} veces.`,
}

/** The reason recorded (and shown as Motivo) for a photo that cannot be processed. */
function rejectionReason(rejection: PhotoRejection): string {
  const megapixels = MAX_INPUT_PIXELS / 1_000_000
  switch (rejection.issue) {
    case 'too_many_pixels':
      return rejection.width
        ? `La imagen de ${rejection.width}×${rejection.height} px supera el máximo de ${megapixels} megapíxeles.`
        : `La imagen supera el máximo de ${megapixels} megapíxeles.`
    case 'unreadable':
      return rejection.decoded
        ? 'El archivo no es una imagen que se pueda leer.'
        : 'El archivo no es una imagen que se pueda leer (JPEG, PNG, WebP, GIF, AVIF o TIFF).'
    case 'too_small':
      return `La imagen mide ${rejection.width}×${rejection.height} px; el mínimo es ${MIN_WIDTH}×${MIN_HEIGHT} px.`
    case 'damaged':
      return 'La imagen está dañada y no se pudo procesar.'
    default:
      return unmapped(rejection)
  }
}

function unmapped(rejection: never): never {
  throw new Error(`Unmapped photo rejection: ${JSON.stringify(rejection)}`)
}

const RETRY_LIMIT = PHOTOS_FETCH_SETTINGS.queue.retryLimit

@inject()
export default class FetchPhoto implements JobHandler<PhotoFetchData> {
  constructor(
    private photos: ListingPhotoStore,
    private keeper: KeepPhoto,
    private settler: SettlePhoto
  ) {}

  static async warmUp() {
    await sweepDownloads()
    await warmUpPhotoCodec()
  }

  async handle(data: PhotoFetchData, job: JobContext) {
    const photo = await this.photos.find(data.photoId)
    if (!photo || photo.state !== 'pending') return

    // Checked on every try: a cleaner of the temporary folder may have removed it meanwhile.
    const file = join(await privateFolder(DOWNLOADS_DIR), `${photo.id}-${randomUUID()}`)
    try {
      await this.#fetch(photo, file, job)
    } finally {
      await rm(file, { force: true })
    }
  }

  /** Download into `file`, process, store and settle. */
  async #fetch(
    photo: { id: number; listing_id: number; source_url: string },
    file: string,
    job: JobContext
  ) {
    const downloaded = await this.#download(photo.source_url, file, job)
    if (!downloaded.ok) return this.#settle(photo, { state: 'rejected', reason: downloaded.reason })

    const kept = await this.keeper.execute({ id: photo.id, listingId: photo.listing_id }, file)
    if (!kept.ok)
      await this.#settle(photo, { state: 'rejected', reason: rejectionReason(kept.details!) })
  }

  /** The body written to `file`, a permanent reason to reject, or a throw (retried by the queue) for passing trouble. */
  async #download(
    url: string,
    file: string,
    job: JobContext
  ): Promise<{ ok: true } | { ok: false; reason: string }> {
    const lastTry = job.retryCount >= RETRY_LIMIT
    try {
      const response = await outbound.request(url, {
        maxBytes: MAX_BYTES,
        timeoutMs: TIMEOUT_MS,
        maxRedirects: MAX_REDIRECTS,
        saveTo: file,
      })
      if (response.status >= 200 && response.status < 300) return { ok: true }
      const reason = `La URL de la foto respondió con el estado HTTP ${response.status}.`
      if ((response.status >= 500 || response.status === 429) && !lastTry) throw new Error(reason)
      return { ok: false, reason }
    } catch (error) {
      if (error instanceof OutboundError && DOWNLOAD_REASONS[error.code])
        return { ok: false, reason: DOWNLOAD_REASONS[error.code] }
      if (!lastTry) throw error
      const reason =
        error instanceof OutboundError && error.code === 'timeout'
          ? `La descarga de la foto no terminó en ${TIMEOUT_MS / 1000} s.`
          : 'No se pudo descargar la foto.'
      return { ok: false, reason }
    }
  }

  async #settle(photo: { id: number; listing_id: number }, outcome: PhotoOutcome) {
    await this.settler.execute({ id: photo.id, listingId: photo.listing_id }, outcome)
  }
}
