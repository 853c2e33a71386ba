/*
 * Turns downloaded bytes into the photo the service serves: decoded with a
 * pixel limit (a decompression bomb is refused from its header, before any
 * pixel is allocated), checked against the 640×360 minimum, auto-rotated,
 * stripped of metadata (sharp drops EXIF/ICC/XMP unless asked to keep them)
 * and re-encoded as a JPEG of at most 1920 px wide plus a 400 px thumbnail.
 */
import sharp, { type Metadata } from 'sharp'
import { fail, ok, type Fail, type Ok } from '#core/result'

// Every photo is decoded once: libvips' operation cache (50 MiB by default) would only hold the worker's memory.
sharp.cache(false)

export const MIN_WIDTH = 640
export const MIN_HEIGHT = 360
/** 50 megapixels: well above any camera photo, far below what would exhaust memory. */
export const MAX_INPUT_PIXELS = 50_000_000
export const MAX_WIDTH = 1920
export const THUMBNAIL_WIDTH = 400

export type ProcessedPhoto = { image: Buffer; thumbnail: Buffer; width: number; height: number }

/** Why a photo is refused for good (the job records it in the photo's own words). */
export type PhotoRejection =
  | { issue: 'too_many_pixels'; width?: number; height?: number }
  | { issue: 'unreadable'; decoded: boolean }
  | { issue: 'too_small'; width: number; height: number }
  | { issue: 'damaged' }

const reject = (details: PhotoRejection) => fail('rejected', { details })

export async function processPhoto(
  input: Buffer
): Promise<Ok<ProcessedPhoto> | Fail<'rejected', PhotoRejection>> {
  let metadata: Metadata
  try {
    metadata = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
  } catch (error: any) {
    // sharp refuses an oversized image from its header, before decoding any pixel.
    if (/pixel limit/i.test(String(error?.message))) return reject({ issue: 'too_many_pixels' })
    return reject({ issue: 'unreadable', decoded: false })
  }
  if (!metadata.width || !metadata.height) return reject({ issue: 'unreadable', decoded: true })
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    return reject({ issue: 'too_many_pixels', width: metadata.width, height: metadata.height })
  }
  // EXIF orientations 5–8 are rotated a quarter turn: the upright size swaps.
  const quarterTurn = (metadata.orientation ?? 1) >= 5
  const width = quarterTurn ? metadata.height : metadata.width
  const height = quarterTurn ? metadata.width : metadata.height
  if (width < MIN_WIDTH || height < MIN_HEIGHT) return reject({ issue: 'too_small', width, height })
  try {
    const image = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: MAX_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true })
    // The thumbnail from the upright, resized image: the original (megabytes of entropy-coded
    // data) is decoded once, not twice.
    const thumbnail = await sharp(image.data)
      .resize({ width: THUMBNAIL_WIDTH })
      .jpeg({ quality: 75 })
      .toBuffer()
    return ok({ image: image.data, thumbnail, width: image.info.width, height: image.info.height })
  } catch {
    return reject({ issue: 'damaged' })
  }
}

/**
 * One small photo through the whole pipeline (decode, rotate, resize, both encodes), so
 * that a worker's first real photo does not also pay for starting the codecs.
 */
export async function warmUpPhotoCodec() {
  const sample = await sharp({
    create: { width: MIN_WIDTH, height: MIN_HEIGHT, channels: 3, background: '#808080' },
  })
    .jpeg()
    .toBuffer()
  const processed = await processPhoto(sample)
  if (!processed.ok) throw new Error(`The warm-up photo was refused: ${processed.details?.issue}`)
}
