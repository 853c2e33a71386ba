/*
 * Counts one view of a public listing page (docs/design.md §6): bots are not
 * counted, and a visitor counts once per listing and day. The visitor is
 * recognised without cookies by sha256(day secret + IP + User-Agent); the day
 * secret is derived from APP_KEY, so hashes of different days cannot be linked.
 */
import { createHash, createHmac } from 'node:crypto'
import { isbot } from 'isbot'
import db from '@adonisjs/lucid/services/db'
import { appKey } from '#config/app'
import { today } from './visit_clock.js'

export type VisitedListing = {
  listingId: number
  appId: number
  agencyId: number
  externalId: string
  operatorId: number | null
}

export type Visitor = { ip: string; userAgent: string | undefined }

export type VisitOutcome = 'counted' | 'repeat' | 'bot'

export function isBot(userAgent: string | undefined): boolean {
  // A request without a User-Agent is a script, not a person browsing.
  return !userAgent || userAgent.trim() === '' || isbot(userAgent)
}

export function daySecret(day: string): Buffer {
  return createHmac('sha256', appKey.release()).update(`listing-visits:${day}`).digest()
}

export function visitorHash(day: string, visitor: Visitor): Buffer {
  return createHash('sha256')
    .update(daySecret(day))
    .update(visitor.ip)
    .update('\n')
    .update(visitor.userAgent ?? '')
    .digest()
}

export default class RecordVisit {
  async execute(
    listing: VisitedListing,
    visitor: Visitor,
    day: string = today()
  ): Promise<VisitOutcome> {
    if (isBot(visitor.userAgent)) return 'bot'
    // One statement: the daily count grows only when the visitor row is new.
    const result = await db.rawQuery(
      `with fresh as (
         insert into listing_visitors (listing_id, day, visitor_hash) values (?, ?, ?)
         on conflict do nothing
         returning 1
       )
       insert into listing_visits (listing_id, day, app_id, agency_id, external_id, operator_id, visits)
       select ?, ?, ?, ?, ?, ?, 1 from fresh
       on conflict (listing_id, day) do update
         set visits = listing_visits.visits + 1, operator_id = excluded.operator_id
       returning visits`,
      [
        listing.listingId,
        day,
        visitorHash(day, visitor),
        listing.listingId,
        day,
        listing.appId,
        listing.agencyId,
        listing.externalId,
        listing.operatorId,
      ]
    )
    return result.rowCount > 0 ? 'counted' : 'repeat'
  }
}
