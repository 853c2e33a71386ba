/*
 * Creates a listing (docs/design.md §6): the vehicle is best-matched against the
 * catalogue (an unknown version keeps its name and takes DatosTecnicosCustom),
 * the edit rules apply as for any change, and the photos' jobs are queued in
 * the same transaction.
 */
import { inject } from '@adonisjs/core'
import { randomBytes } from 'node:crypto'
import { fail, ok, type Ok } from '#core/result'
import { uniqueViolation } from '#core/database/errors'
import UnitOfWork, { type Tx } from '#core/database/unit_of_work'
import type { Caller } from '#core/auth/app_scoped'
import type { AgencyView } from '#agencies/services/agency_directory'
import AgencyService from '#agencies/services/agency_service'
import VehicleResolver, { type VersionRef } from '#catalog/services/vehicle_resolver'
import type { Exposure, ListingState, Spec } from '#listings/models/listing'
import type { ListingCreateInput } from '#listings/validators/listing'
import ListingStore from '#listings/stores/listing_store'
import ApplyEdit, { type EditContext, type PlaceValues } from './apply_edit.js'
import type { BatchReads } from './edit_reads.js'
import { toRecord, type ListingRecord } from './listing_record.js'
import PhotoSet from './photo_set.js'
import { slugFor } from './listing_rules.js'
import {
  invalid,
  type InvalidListing,
  type ListingConflict,
  type ListingIssue,
  type ListingNotice,
} from './listing_failures.js'

export type CreateFailure = InvalidListing | ListingConflict

/** What a batch of creations (`many`) reads once for all its listings. */
type Batch = {
  reads: BatchReads
  /** The ExternalIds (lower case) the agency already has. */
  taken: Set<string>
  /** Each `Locacion` sent, resolved once. */
  places: Map<string, Promise<PlaceValues | undefined>>
  catalogue: Lookups
}

/** A new listing's row, ready for the batch's INSERT. */
type Prepared = { values: Record<string, unknown>; photos?: string[]; notices: ListingNotice[] }

/** The catalogue's own technical data, shown as DatosTecnicosCustom of known versions. */
export function catalogueSpecs(version: VersionRef): Spec[] {
  const specs: Array<Spec | null> = [
    version.power ? { name: 'Potencia', value: `${version.power} CV` } : null,
    version.displacement ? { name: 'Cilindrada', value: `${version.displacement} cm³` } : null,
    version.bodyType ? { name: 'Carroceria', value: version.bodyType } : null,
    version.segment ? { name: 'Segmento', value: version.segment } : null,
  ]
  return specs.filter((spec): spec is Spec => spec !== null)
}

@inject()
export default class CreateListing {
  constructor(
    private vehicles: VehicleResolver,
    private applyEdit: ApplyEdit,
    private listings: ListingStore,
    private photoSet: PhotoSet,
    private unitOfWork: UnitOfWork,
    private agencies: AgencyService
  ) {}

  async execute(
    caller: Caller,
    agency: AgencyView,
    input: ListingCreateInput,
    /** The caller's transaction (a stock sync row): the create runs in a savepoint of it. */
    within?: Tx
  ): Promise<
    Ok<{ agency: AgencyView; record: ListingRecord; notices: ListingNotice[] }> | CreateFailure
  > {
    const vehicle = await this.#vehicle(input)
    if (!vehicle.ok) return vehicle
    const location = await this.#location(agency, input)

    try {
      return await this.unitOfWork.run(
        async (tx) => {
          if (await this.listings.externalIdTaken(agency.id, input.externalId, tx))
            return duplicate()

          const applied = await this.applyEdit.execute(
            tx,
            creation(agency, input, vehicle.value, location)
          )
          // A new listing waits for a running desasociar instead (see ApplyEdit): never `members_busy`.
          if (!applied.ok) {
            if ('signal' in applied) throw new Error('A new listing cannot be busy')
            return applied
          }

          const id = await this.listings.insert(
            this.#columns(caller, agency, input, vehicle.value, applied.value.values),
            tx
          )
          if (applied.value.photos) {
            await this.photoSet.install({ id, appId: caller.id }, applied.value.photos, tx)
          }
          const listing = await this.listings.find(caller.id, agency.id, input.externalId, {}, tx)
          return ok({ agency, record: toRecord(listing!), notices: applied.value.notices })
        },
        { client: within }
      )
    } catch (error: any) {
      // A concurrent create with the same ExternalId lost the race on the unique index.
      if (uniqueViolation(error) === 'listings_agency_external') return duplicate()
      throw error
    }
  }

  /**
   * Creates several listings of one agency in `tx` (a stock sync's batch of new
   * rows): the rules of `execute`, with the agency's people, plan and counts
   * read once for the batch (ApplyEdit.batchReads) and one INSERT for all.
   * Results in the order of `inputs`; a listing's id when created.
   */
  async many(
    caller: Caller,
    agency: AgencyView,
    inputs: ListingCreateInput[],
    tx: Tx
  ): Promise<Array<Ok<{ id: number; notices: ListingNotice[] }> | CreateFailure>> {
    const batch: Batch = {
      reads: this.applyEdit.batchReads(),
      taken: await this.listings.takenIn(
        agency.id,
        inputs.map((input) => input.externalId),
        tx
      ),
      places: new Map(),
      // A stock names the same makes, models and versions again and again: each looked up once.
      catalogue: memoized(this.vehicles),
    }
    const results: Array<Ok<{ id: number; notices: ListingNotice[] }> | CreateFailure> = []
    const accepted: (Prepared & { index: number })[] = []
    for (const [index, input] of inputs.entries()) {
      const prepared = await this.#prepare(caller, agency, input, batch, tx)
      if ('values' in prepared) accepted.push({ index, ...prepared })
      else results[index] = prepared
    }
    const ids = await this.listings.insertMany(
      accepted.map((row) => row.values),
      tx
    )
    for (const [position, row] of accepted.entries()) {
      const id = ids[position]
      results[row.index] = ok({ id, notices: row.notices })
      if (row.photos) await this.photoSet.install({ id, appId: caller.id }, row.photos, tx)
    }
    return results
  }

  /** One new listing of a batch: its row's columns, or why it is refused. */
  async #prepare(
    caller: Caller,
    agency: AgencyView,
    input: ListingCreateInput,
    batch: Batch,
    tx: Tx
  ): Promise<Prepared | CreateFailure> {
    if (batch.taken.has(input.externalId.toLowerCase())) return duplicate()
    const vehicle = await this.#vehicle(input, batch.catalogue)
    if (!vehicle.ok) return vehicle
    const placeKey = JSON.stringify(input.location ?? null) + (input.location === undefined)
    if (!batch.places.has(placeKey)) batch.places.set(placeKey, this.#location(agency, input))
    const applied = await this.applyEdit.execute(tx, {
      ...creation(agency, input, vehicle.value, await batch.places.get(placeKey)),
      reads: batch.reads,
    })
    if (!applied.ok) {
      if ('signal' in applied) throw new Error('A new listing cannot be busy')
      return applied
    }
    const { values } = applied.value
    batch.reads.counted(values.state as ListingState, values.exposure as Exposure)
    return {
      values: this.#columns(caller, agency, input, vehicle.value, values),
      photos: applied.value.photos,
      notices: applied.value.notices,
    }
  }

  /** The new row's columns: the vehicle, the edit's values, who and where it belongs. */
  #columns(
    caller: Caller,
    agency: AgencyView,
    input: ListingCreateInput,
    vehicle: Vehicle,
    values: Record<string, unknown>
  ) {
    return {
      ...vehicle.columns,
      ...values,
      app_id: caller.id,
      agency_id: agency.id,
      admin_email: agency.adminMail,
      external_id: input.externalId,
      slug: slugFor(
        vehicle.columns.brand_name,
        vehicle.columns.model_name,
        vehicle.year,
        shortId()
      ),
      revision: 1,
    }
  }

  /**
   * `Locacion` as sent (null: none); absent, the agency's main branch's place
   * (docs/design.md §19), read through the agencies module's service.
   */
  async #location(agency: AgencyView, input: ListingCreateInput): Promise<PlaceValues | undefined> {
    if (input.location !== undefined) return this.applyEdit.resolveLocation(input)
    const branches = await this.agencies.branches(agency.id)
    const main = branches.find((branch) => branch.isMain)
    return main ? this.applyEdit.placeOf(main) : undefined
  }

  async #vehicle(input: ListingCreateInput, vehicles: Lookups = this.vehicles) {
    const brand = await vehicles.brand(input.brand)
    if (!brand.ok) return invalid([{ field: 'brand', issue: brand.reason, value: input.brand }])
    const model = await vehicles.model(input.model, brand.value.id)
    if (!model.ok) return invalid([{ field: 'model', issue: model.reason, value: input.model }])

    let version = await vehicles.version(input.version, model.value.id, input.year)
    if (!version.ok && version.reason === 'not_found' && input.year) {
      version = await vehicles.version(input.version, model.value.id)
    }
    if (!version.ok && version.reason === 'ambiguous') {
      return invalid([{ field: 'version', issue: 'ambiguous', value: input.version }])
    }
    const known = version.ok ? version.value : null

    const issues: ListingIssue[] = []
    const year = input.year ?? known?.year ?? null
    if (year === null) issues.push({ field: 'year', issue: 'required' })
    const transmission = input.transmission ?? known?.transmission ?? null
    if (!transmission) issues.push({ field: 'transmission', issue: 'required' })
    const propulsion = input.propulsion ?? known?.propulsion ?? null
    if (!propulsion) issues.push({ field: 'propulsion', issue: 'required' })
    if (issues.length > 0) return invalid(issues)

    return ok({
      year: year!,
      versionId: known?.id ?? null,
      specs: known ? catalogueSpecs(known) : undefined,
      columns: {
        brand_id: brand.value.id,
        model_id: model.value.id,
        version_id: known?.id ?? null,
        brand_name: brand.value.name,
        model_name: model.value.name,
        version_name: known?.name ?? input.version,
        body_type: known?.bodyType ?? null,
        transmission: transmission!,
        propulsion: propulsion!,
        ...(known ? { custom_specs: JSON.stringify(catalogueSpecs(known)) } : {}),
      },
    })
  }
}

type Lookups = Pick<VehicleResolver, 'brand' | 'model' | 'version'>

/** The catalogue's lookups, each answer kept for the calls that follow (one batch's). */
function memoized(vehicles: Lookups): Lookups {
  const answers = new Map<string, Promise<any>>()
  const once = <T>(key: string, look: () => Promise<T>): Promise<T> => {
    if (!answers.has(key)) answers.set(key, look())
    return answers.get(key)!
  }
  return {
    brand: (name) => once(`b ${name}`, () => vehicles.brand(name)),
    model: (name, brandId) => once(`m ${brandId} ${name}`, () => vehicles.model(name, brandId)),
    version: (name, modelId, year) =>
      once(`v ${modelId} ${year} ${name}`, () => vehicles.version(name, modelId, year)),
  }
}

/** A row's vehicle as the catalogue resolved it. */
type Vehicle = {
  year: number
  versionId: number | null
  specs?: Spec[]
  columns: { brand_name: string; model_name: string } & Record<string, unknown>
}

/** What ApplyEdit checks of a new listing, created alone or in a stock sync's batch. */
function creation(
  agency: AgencyView,
  input: ListingCreateInput,
  vehicle: { year: number; versionId: number | null; specs?: Spec[] },
  location: PlaceValues | undefined
): EditContext {
  return {
    agency,
    listing: null,
    photoCount: 0,
    input,
    target: input.active === false ? 'suspended' : 'active',
    base: { year: vehicle.year, mileage: input.mileage },
    versionKnown: vehicle.versionId !== null,
    catalogueSpecs: vehicle.specs,
    location,
  }
}

function duplicate() {
  return fail('duplicate_external_id')
}

function shortId() {
  return randomBytes(5).readUIntBE(0, 5).toString(36).padStart(8, '0').slice(-8)
}
