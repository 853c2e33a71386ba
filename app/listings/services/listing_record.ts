/*
 * What a listing read or write answers: the stored fields and its ready
 * photos' public URLs. A listing row carries its ready photos' keys, so a GET
 * is one index-backed query and a list needs no per-row query.
 */
import type { ListingData } from '#listings/models/listing'
import { photoUrl } from './photo_storage.js'

export type ListingRecord = { listing: ListingData; photoUrls: string[]; photoCount: number }

export function toRecord(listing: ListingData): ListingRecord {
  return { listing, photoUrls: listing.photoKeys.map(photoUrl), photoCount: listing.photoCount }
}
