/*
 * Where processed photos live (the Drive disk of DRIVE_DISK) and the public
 * URLs the service serves them under. Keys carry a content hash, so a URL
 * never changes meaning and can be cached forever.
 */
import drive from '@adonisjs/drive/services/main'
import { settings } from '#core/settings'

export const PHOTO_ROUTE = '/fotos'

/** `{listingId}/{photoId}-{hash}.jpg` and its `-t.jpg` thumbnail; nothing else is served. */
export const KEY_PATTERN = /^\d+\/\d+-[0-9a-f]{16}(-t)?\.jpg$/

export function photoUrl(key: string) {
  return `${settings.publicUrl}${PHOTO_ROUTE}/${key}`
}

export function photoKeys(listingId: number, photoId: number, hash: string) {
  const base = `${listingId}/${photoId}-${hash.slice(0, 16)}`
  return { image: `${base}.jpg`, thumbnail: `${base}-t.jpg` }
}

export async function storePhoto(key: string, contents: Buffer) {
  await drive.use().put(key, contents, {
    contentType: 'image/jpeg',
    cacheControl: 'public, max-age=31536000, immutable',
  })
}

/** The stored bytes, or null when the key is unknown. */
export async function readPhoto(key: string) {
  if (!KEY_PATTERN.test(key)) return null
  const disk = drive.use()
  if (!(await disk.exists(key))) return null
  return disk.getBytes(key)
}
