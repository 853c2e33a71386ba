/*
 * What can go wrong with a listing, in domain words. Bad input is a list of
 * issues, each named after the domain field it concerns; listings/controllers/
 * problems.ts gives every failure its status, wire field names and text.
 */
import { fail, type Fail } from '#core/result'
import type { Exposure } from '#listings/models/listing'

export type MatchIssue = 'not_found' | 'ambiguous'

export type ListingIssue =
  | { field: 'brand' | 'model'; issue: MatchIssue; value: string }
  | { field: 'version'; issue: 'ambiguous'; value: string }
  | { field: 'year' | 'transmission' | 'propulsion'; issue: 'required' }
  | { field: 'operator'; issue: 'none' }
  | { field: 'phone'; issue: 'not_of_operator' }
  | { field: 'mileage'; issue: 'zero_when_used'; year: number }
  | { field: 'mileage'; issue: 'implausible'; year: number; mileage: number; ceiling: number }
  | { field: 'photos'; issue: 'required' }
  | { field: 'warrantyCertificate'; issue: 'new_vehicle' }
  | { field: 'region' | 'city'; issue: MatchIssue; value: string }
  | { field: 'operatorFilter'; issue: 'not_member' }
  /** A member fixed when the listing was created, sent with another value (docs/design.md §24). */
  | { field: FixedField; issue: 'fixed' }

/** What an edit cannot change: the vehicle and the ExternalId. */
export type FixedField =
  'externalId' | 'brand' | 'model' | 'version' | 'transmission' | 'propulsion'

/**
 * A change the write did not make as asked, though it succeeded (docs/design.md §24):
 * a photo list the spec's count rule ignored, technical data sent for a catalogue
 * version (which shows the catalogue's, docs/design.md §7), an exposure level whose
 * quota was full.
 */
export type ListingNotice =
  | { field: 'photos'; issue: 'same_count' }
  | { field: 'customSpecs'; issue: 'catalogue_version' }
  | { field: 'exposure'; issue: 'quota_full'; requested: Exposure; given: Exposure }

export type InvalidListing = Fail<'invalid', ListingIssue[]>

/** Refusals because of the listing's, agency's or plan's state (409). */
export type ListingConflict =
  | Fail<'archived'>
  | Fail<'no_quota'>
  | Fail<'agency_suspended'>
  | Fail<'operator_suspended'>
  | Fail<'plan_full', { capacity: number }>
  | Fail<'duplicate_external_id'>
  | Fail<'changed_concurrently'>

export type ListingFailure =
  Fail<'not_found'> | Fail<'precondition', { etag: string }> | InvalidListing | ListingConflict

export const invalid = (issues: ListingIssue[]): InvalidListing =>
  fail('invalid', { details: issues })
