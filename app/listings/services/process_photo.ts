/*
 * Turns a downloaded photo (a file, or bytes) into the photo the service
 * serves: decoded with a pixel limit (a decompression bomb is refused from its
 * header, before any pixel is allocated), checked against the 640×360 minimum,
 * auto-rotated, stripped of metadata (sharp drops EXIF/ICC/XMP unless asked to
 * keep them) and re-encoded as a JPEG of at most 1920 px wide plus a 400 px
 * thumbnail.
 *
 * A JPEG file at least twice as wide as the output is decoded at 1/2, 1/4 or
 * 1/8 of its size by libjpeg itself (libvips' `shrink` load option, given in
 * the file name): a 12 MP photo then needs half the memory and less CPU.
 * sharp only does this for a reduction of 3× or more, so a 4000 px photo
 * going to 1920 px would be decoded whole (docs/decisions/performance.md).
 */
import { open, readFile } from 'node:fs/promises'
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

/** A file is opened by libvips only when it is a JPEG; anything else is read and decoded from memory. */
async function isJpegFile(path: string) {
  const file = await open(path, 'r')
  try {
    const { bytesRead, buffer } = await file.read(Buffer.alloc(3), 0, 3, 0)
    return bytesRead === 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff
  } finally {
    await file.close()
  }
}

/** The largest libjpeg scale (1/2, 1/4, 1/8) that keeps `width` at least MAX_WIDTH. */
export function jpegShrink(width: number) {
  for (const shrink of [8, 4, 2]) if (Math.floor(width / shrink) >= MAX_WIDTH) return shrink
  return 1
}

/**
 * `input`: the photo's bytes, or the path of a file holding them. Only a file
 * lets a JPEG be decoded at a fraction of its size (see above).
 */
export async function processPhoto(
  input: Buffer | string
): Promise<Ok<ProcessedPhoto> | Fail<'rejected', PhotoRejection>> {
  // libvips picks a file's loader from its contents and its name; a file that is not a JPEG
  // goes through the same loaders as bytes do.
  if (typeof input === 'string' && !(await isJpegFile(input))) {
    input = await readFile(input)
  }
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
  const shrink = typeof input === 'string' && metadata.format === 'jpeg' ? jpegShrink(width) : 1
  try {
    const image = await sharp(shrink > 1 ? `${input}[shrink=${shrink}]` : input, {
      limitInputPixels: MAX_INPUT_PIXELS,
    })
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
