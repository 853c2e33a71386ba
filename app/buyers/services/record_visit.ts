/*
 * Counts one view of a public listing page (docs/design.md §6): bots are not
 * counted, and a visitor counts once per listing and day. The visitor is
 * recognised without cookies by sha256(day secret + IP + User-Agent); the day
 * secret is derived from APP_KEY, so hashes of different days cannot be linked.
 */
import { createHash, createHmac } from 'node:crypto'
import { isbot } from 'isbot'
import { inject } from '@adonisjs/core'
import { appKey } from '#config/app'
import VisitStore, { type VisitedListing } from '#buyers/stores/visit_store'
import { today } from './visit_clock.js'

export type { VisitedListing }

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

@inject()
export default class RecordVisit {
  constructor(private store: VisitStore) {}

  async execute(
    listing: VisitedListing,
    visitor: Visitor,
    day: string = today()
  ): Promise<VisitOutcome> {
    if (isBot(visitor.userAgent)) return 'bot'
    return (await this.store.count(listing, day, visitorHash(day, visitor))) ? 'counted' : 'repeat'
  }
}
