/*
 * The one place an edit becomes new column values: every rule of docs/spec.md §2.3,
 * §3, §8 and docs/design.md §7, for creation and every kind of change alike.
 * Bad input fails with `invalid` and its issues; a state the plan, the agency
 * or the operator does not allow fails with its own reason (listing_failures.ts).
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import { fail, ok, type Ok } from '#core/result'
import AgencyDirectory, {
  type AgencyView,
  type OperatorView,
  type PlanView,
} from '#agencies/services/agency_directory'
import PlaceResolver from '#catalog/services/place_resolver'
import type { ListingData } from '#listings/models/listing'
import type { Exposure, ListingState, Spec } from '#listings/models/listing'
import { type ListingEditInput, type Money } from '#listings/validators/listing'
import ListingStore from '#listings/stores/listing_store'
import {
  chooseExposure,
  choosePhone,
  exposureNotice,
  mileageIssue,
  photoChange,
  sameSpecs,
  transition,
} from './listing_rules.js'
import {
  invalid,
  type InvalidListing,
  type ListingConflict,
  type ListingIssue,
  type ListingNotice,
  type MatchIssue,
} from './listing_failures.js'
import { signal, type Signal } from './write_signals.js'
import { BatchReads, liveReads, type EditReads } from './edit_reads.js'

export type EditContext = {
  agency: AgencyView
  /** The listing as stored, or null when creating. */
  listing: ListingData | null
  /** Every photo of the listing, pending and rejected ones too. */
  photoCount: number
  /** The photos the representation shows (processed ones); none when creating. */
  shownPhotos?: string[]
  /** The listing's photos as their URLs were sent, when the caller read them (see `photoChange`). */
  photoSources?: string[]
  input: ListingEditInput
  target: ListingState
  /** Year and mileage of a new listing (required there). */
  base?: { year: number; mileage: number }
  /** Known catalogue versions keep the catalogue's technical data. */
  versionKnown: boolean
  /** The technical data a known version shows: the listing's, or (creating) the catalogue's. */
  catalogueSpecs?: Spec[]
  /** `Locacion` resolved beforehand (`resolveLocation`); undefined when the body has none. */
  location?: PlaceValues
  /** The transaction already holds off desasociar (`AgencyDirectory.holdMembers`). */
  membersHeld?: boolean
  /** Where the rules read the agency from (a stock sync's batch shares its reads); default live. */
  reads?: EditReads
}

/** The place columns of a `Locacion`, or its issues. */
export type PlaceValues = Ok<Record<string, unknown>> | InvalidListing

/**
 * Column values to write (snake_case), the photo list to install if it
 * changed, and what the edit did not do as asked (an Aviso each).
 */
export type EditResult = {
  values: Record<string, unknown>
  photos?: string[]
  notices: ListingNotice[]
}

export type Edited = Ok<EditResult> | InvalidListing | ListingConflict | Signal<'members_busy'>

@inject()
export default class ApplyEdit {
  #live: EditReads

  constructor(
    directory: AgencyDirectory,
    private places: PlaceResolver,
    listings: ListingStore
  ) {
    this.#live = liveReads(directory, listings)
  }

  /** Reads for many edits of one agency in one transaction (a stock sync's batch). */
  batchReads() {
    return new BatchReads(this.#live)
  }

  /**
   * The edit inside `tx`, which holds the listing row (if any).
   * `members_busy`: the edit names a new responsible operator while a
   * desasociar of the agency runs, and the caller holds the listing row
   * (which that desasociar may need): roll back and retry with `membersHeld`.
   */
  execute(tx: Tx, context: EditContext): Promise<Edited> {
    // With a transaction nothing needs one: `needs_lock` cannot come back.
    return this.#apply(tx, context) as Promise<Edited>
  }

  /**
   * The edit read without a transaction (ChangeListing's optimistic attempt):
   * `needs_lock` wherever it would need one (an activation, a count against
   * the plan, a newly named responsible).
   */
  withoutLock(context: EditContext): Promise<Edited | Signal<'needs_lock'>> {
    return this.#apply(undefined, context)
  }

  /** `tx` undefined: reads on the pool and signals `needs_lock` instead of locking. */
  async #apply(tx: Tx | undefined, context: EditContext): Promise<Edited | Signal<'needs_lock'>> {
    const { agency, listing, input } = context
    const reads = context.reads ?? this.#live
    const held = await this.#holdNewResponsible(reads, tx, context)
    if (held) return held
    const { operator, plan } = await this.#operator(reads, tx, agency, listing, input.operatorEmail)
    if (!operator) return invalid([{ field: 'operator', issue: 'none' }])
    const { values, photos, issues, notices } = editValues(context, operator)
    if (issues.length > 0) return invalid(issues)

    const from: ListingState = listing?.state ?? 'suspended'
    const moved = transition(from, context.target)
    if (!moved.ok) return moved
    values.state = context.target

    const exposure = await this.#exposure(
      reads,
      tx,
      context,
      operator,
      plan,
      moved.value.activating
    )
    if (!exposure.ok) return exposure
    values.exposure = exposure.value
    const lowered = exposureNotice(input.exposure, listing?.exposure, exposure.value)
    if (lowered) notices.push(lowered)

    return ok({ values, photos, notices })
  }

  /**
   * A newly named responsible must still be a member when this commits: hold off any
   * desasociar (it would not see this uncommitted listing) before reading the membership.
   * An unchanged operator needs nothing — desasociar moves the listing through its row,
   * which this write has locked — nor does the administrator, who is never detached.
   * Null when held (or not needed).
   */
  async #holdNewResponsible(
    reads: EditReads,
    tx: Tx | undefined,
    context: EditContext
  ): Promise<Signal<'needs_lock' | 'members_busy'> | null> {
    const { agency, listing } = context
    const named = context.input.operatorEmail?.trim().toLowerCase()
    if (
      !named ||
      named === listing?.operatorEmail ||
      named === agency.adminMail ||
      context.membersHeld
    ) {
      return null
    }
    if (!tx) return signal('needs_lock')
    // A new listing holds no row a desasociar needs, so it may wait; an existing one may not.
    const held = await reads.holdMembers(agency.id, tx, { wait: listing === null })
    return held ? null : signal('members_busy')
  }

  /**
   * The responsible operator: the one named when a collaborator, else the
   * current one (else the administrator). The current one comes with the
   * plan (one statement for the common edit); otherwise `#exposure` reads it.
   */
  async #operator(
    reads: EditReads,
    client: Tx | undefined,
    agency: AgencyView,
    listing: ListingData | null,
    email: string | null | undefined
  ): Promise<{ operator: OperatorView | null; plan?: PlanView }> {
    if (email) {
      const named = await reads.member(agency.id, email, client)
      if (named) return { operator: named }
    }
    if (listing) {
      const current = await reads.memberByIdWithPlan(agency.id, listing.operatorId, client)
      if (current.member) return { operator: current.member, plan: current.plan }
    }
    return { operator: await reads.admin(agency.id, client) }
  }

  /**
   * Resolves `Locacion` through the catalogue. Callers run it before opening
   * the write's transaction: a catalogue read inside it would hold a second
   * pool connection per request, and a burst of writes would starve the pool.
   */
  async resolveLocation(
    input: Pick<ListingEditInput, 'location'>
  ): Promise<PlaceValues | undefined> {
    return input.location === undefined ? undefined : this.#location(input.location)
  }

  /**
   * The place columns of a branch (the agency's main one, the default of a
   * listing created without `Locacion`, docs/design.md §19), named from the
   * catalogue as a resolved `Locacion` would be.
   */
  async placeOf(branch: {
    regionId: number | null
    cityId: number | null
    address: string | null
  }): Promise<PlaceValues> {
    const { regions, cities } = await this.places.names([branch])
    const region = branch.regionId ? regions.get(branch.regionId) : undefined
    const city = branch.cityId ? cities.get(branch.cityId) : undefined
    return ok({
      region_id: region?.id ?? null,
      region_name: region?.name ?? null,
      city_id: city?.id ?? null,
      city_name: city?.name ?? null,
      address: branch.address,
    })
  }

  /**
   * The listing's own place when `Locacion` names it again (same region and
   * city, ignoring case): no catalogue lookup. Null when it must be resolved.
   */
  keptLocation(location: ListingEditInput['location'], listing: ListingData): PlaceValues | null {
    const same = (sent: string | null | undefined, stored: string | null) =>
      (sent ?? null) === null
        ? stored === null
        : stored !== null && sent!.trim().toLowerCase() === stored.toLowerCase()
    if (!location || !location.region || listing.regionId === null) return null
    if (!same(location.region, listing.regionName) || !same(location.city, listing.cityName))
      return null
    if ((location.city ?? null) !== null && listing.cityId === null) return null
    return ok({
      region_id: listing.regionId,
      region_name: listing.regionName,
      city_id: listing.cityId,
      city_name: listing.cityName,
      address: location.address ?? null,
    })
  }

  async #location(location: ListingEditInput['location']): Promise<PlaceValues> {
    const values: Record<string, unknown> = {
      region_id: null,
      region_name: null,
      city_id: null,
      city_name: null,
      address: location?.address ?? null,
    }
    if (!location) return ok(values)
    if (location.region) {
      const region = await this.places.region(location.region)
      if (!region.ok) {
        return invalid([
          { field: 'region', issue: region.reason as MatchIssue, value: location.region },
        ])
      }
      values.region_id = region.value.id
      values.region_name = region.value.name
    }
    if (location.city) {
      const city = await this.places.city(location.city, values.region_id as number | null)
      if (!city.ok) {
        return invalid([{ field: 'city', issue: city.reason as MatchIssue, value: location.city }])
      }
      values.city_id = city.value.id
      values.city_name = city.value.name
      values.region_id = city.value.regionId
      values.region_name = city.value.regionName
    }
    return ok(values)
  }

  /**
   * Activation conditions (docs/spec.md §3, docs/design.md §7) and the exposure level.
   * Active listings are counted under a per-agency advisory lock, so two
   * concurrent activations cannot both take the last place.
   */
  async #exposure(
    reads: EditReads,
    tx: Tx | undefined,
    context: EditContext,
    operator: OperatorView,
    known: PlanView | undefined,
    activating: boolean
  ): Promise<Ok<Exposure> | ListingConflict | Signal<'needs_lock'>> {
    const { agency, listing, input, target } = context
    const willBeActive = target === 'active'
    const requested = input.exposure
    // An active listing keeping its level already holds its place: no count,
    // no agency-wide lock, so edits of different listings don't queue.
    const keepsItsPlace =
      listing?.state === 'active' &&
      willBeActive &&
      (requested === undefined || requested === listing.exposure)
    const counts = willBeActive && !keepsItsPlace
    let used: Record<Exposure, number> = { high: 0, medium: 0, low: 0 }
    if (activating || counts) {
      if (!tx) return signal('needs_lock')
      const held = await this.#holdForActivation(reads, tx, context, operator, activating, counts)
      if (!held.ok) return held
      used = held.value
    }
    // Under the agency's lock the plan is read after taking it, as the count is.
    const plan = known && !counts ? known : await reads.plan(agency.id, tx)
    if (activating) {
      const active = used.high + used.medium + used.low
      if (active >= plan.capacity) {
        return fail('plan_full', { details: { capacity: plan.capacity } })
      }
    }
    const chosen = chooseExposure({
      requested,
      current: listing?.exposure,
      plan,
      used,
      willBeActive,
    })
    return chosen
  }

  /**
   * Under `tx`: an activation waits for any suspension of the agency or the
   * operator (and fails if one is in place); a count against the plan takes
   * the agency's activations lock and reads the active listings per level.
   */
  async #holdForActivation(
    reads: EditReads,
    tx: Tx,
    context: EditContext,
    operator: OperatorView,
    activating: boolean,
    counts: boolean
  ): Promise<Ok<Record<Exposure, number>> | ListingConflict> {
    const { agency, listing } = context
    if (activating) {
      // Not the flags read before the transaction: a suspension may be committing now, and its
      // `state = 'active' for update` cannot see this listing (it is not active yet). Deadlock-free:
      // this waits only for a suspension's agency/operator row while holding the listing row
      // (and, for a new listing, nothing), and a suspension locks only listings that are already
      // active — never this one; one that starts after this read waits for `tx` instead.
      const suspended = await reads.holdSuspensions(agency.id, operator.id, tx)
      if (suspended.agency) return fail('agency_suspended')
      if (suspended.operator) return fail('operator_suspended')
    }
    if (!counts) return ok({ high: 0, medium: 0, low: 0 })
    await reads.holdActivations(agency.id, tx)
    return ok(await reads.activeByExposure(agency.id, { except: listing?.id }, tx))
  }
}

/**
 * What the edit's members become (snake_case columns), the photo list to
 * install if it changed, and the issues and notices they give; the state and
 * exposure are ApplyEdit's, which reads the agency for them.
 */
function editValues(context: EditContext, operator: OperatorView) {
  const { listing, input } = context
  const issues: ListingIssue[] = []
  const notices: ListingNotice[] = []
  const values: Record<string, unknown> = {
    operator_id: operator.id,
    operator_email: operator.email,
  }
  const phone = choosePhone(input.phone, listing?.phone ?? null, operator.phones)
  if (phone.ok) values.phone = phone.value
  else issues.push({ field: 'phone', issue: 'not_of_operator' })

  const year = input.year ?? listing?.year ?? context.base!.year
  const mileage = input.mileage ?? listing?.mileage ?? context.base!.mileage
  if (!listing || input.year !== undefined || input.mileage !== undefined) {
    const issue = mileageIssue(year, mileage)
    if (issue) issues.push(issue)
  }
  values.year = year
  values.mileage = mileage

  const photos = photoValues(context, mileage, issues, notices)
  const certificate =
    input.warrantyCertificate === undefined
      ? (listing?.warrantyCertificate ?? false)
      : input.warrantyCertificate === true
  if (certificate && mileage === 0) {
    issues.push({ field: 'warrantyCertificate', issue: 'new_vehicle' })
  }
  values.warranty_certificate = certificate
  specValues(context, values, notices)

  if (context.location) {
    if (context.location.ok) Object.assign(values, context.location.value)
    else issues.push(...(context.location.details ?? []))
  }
  if (input.refStock !== undefined) values.ref_stock = input.refStock
  if (input.colour !== undefined) values.colour = input.colour
  if (input.description !== undefined) values.description = input.description
  setMoney(values, 'price', input.price)
  setMoney(values, 'down_payment', input.downPayment)
  setMoney(values, 'installment', input.installment)
  return { values, photos, issues, notices }
}

/** The photo list to install, if it changes; a used vehicle must keep some. */
function photoValues(
  context: EditContext,
  mileage: number,
  issues: ListingIssue[],
  notices: ListingNotice[]
): string[] | undefined {
  const { input } = context
  let photos: string[] | undefined
  let photoCount = context.photoCount
  const photoList = photoChange(input.photos, {
    shown: context.shownPhotos ?? [],
    count: context.photoCount,
    sources: context.photoSources,
  })
  if (photoList === 'replace') {
    photos = input.photos!
    photoCount = photos.length
  }
  // Spec §2.3: a list of the same length as the current one is ignored — and said so.
  if (photoList === 'ignored') notices.push({ field: 'photos', issue: 'same_count' })
  if (mileage > 0 && photoCount === 0) issues.push({ field: 'photos', issue: 'required' })
  return photos
}

/** Technical data: the listing's own for a version not in the catalogue. */
function specValues(
  context: EditContext,
  values: Record<string, unknown>,
  notices: ListingNotice[]
) {
  const { input, listing } = context
  if (input.customSpecs !== undefined && !context.versionKnown) {
    values.custom_specs = JSON.stringify((input.customSpecs ?? []) satisfies Spec[])
  }
  // A known version shows the catalogue's data: another list is ignored, and said so.
  if (
    context.versionKnown &&
    Array.isArray(input.customSpecs) &&
    !sameSpecs(input.customSpecs, context.catalogueSpecs ?? listing?.customSpecs ?? [])
  ) {
    notices.push({ field: 'customSpecs', issue: 'catalogue_version' })
  }
}

function setMoney(values: Record<string, unknown>, prefix: string, money: Money | undefined) {
  if (money === undefined) return
  values[`${prefix}_currency`] = money?.currency ?? null
  values[`${prefix}_amount`] = money?.amount ?? null
}
