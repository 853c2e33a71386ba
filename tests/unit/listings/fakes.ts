/*
 * Hand-rolled fakes for the listings actions' unit specs: the listing store
 * over an array, and the collaborators from other modules (agency directory,
 * place and vehicle resolvers) over a few fixed records. Each records what it
 * was asked (`calls`), so a spec can assert which locks a change took and
 * whether it ran in a transaction. Nothing here touches PostgreSQL.
 */
import { fail, ok } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import { FakeUnitOfWork } from '#tests/helpers/fakes'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type AgencyService from '#agencies/services/agency_service'
import type { AgencyView, OperatorView, PlanView } from '#agencies/services/agency_directory'
import type PlaceResolver from '#catalog/services/place_resolver'
import type VehicleResolver from '#catalog/services/vehicle_resolver'
import type { VersionRef } from '#catalog/services/vehicle_resolver'
import type { Exposure, ListingData, ListingState } from '#listings/models/listing'
import type ListingStore from '#listings/stores/listing_store'
import type { ActiveScope, ListingValues } from '#listings/stores/listing_store'
import type ListingPhotoStore from '#listings/stores/listing_photo_store'
import type { PhotoOutcome } from '#listings/stores/listing_photo_store'
import type PhotoSet from '#listings/services/photo_set'
import type ListingEvents from '#listings/services/listing_events'
import type { StateCause } from '#listings/services/listing_events'
import ApplyEdit from '#listings/services/apply_edit'
import ChangeListing from '#listings/services/change_listing'
import CreateListing from '#listings/services/create_listing'
import ListingWriters from '#listings/services/listing_writers'
import SettlePhoto from '#listings/services/settle_photo'
import SuspendListings from '#listings/services/suspend_listings'
import { currentYear } from '#listings/services/listing_rules'

export const APP_ID = 7
export const OTHER_APP_ID = 8

export const AGENCY: AgencyView = {
  id: 1,
  adminMail: 'admin@agencia.example',
  tradeName: 'Agencia',
  suspended: false,
  receivesOtherLeads: false,
}

const operator = (id: number, email: string, phones: string[], isAdmin = false): OperatorView => ({
  id,
  email,
  firstName: 'Nombre',
  lastName: 'Apellido',
  phones,
  suspended: false,
  isAdmin,
})
export const ADMIN = operator(10, AGENCY.adminMail, ['1111'], true)
export const COLLAB = operator(11, 'colab@agencia.example', ['2222', '3333'])
export const OTHER_COLLAB = operator(12, 'otra@agencia.example', ['4444'])

/** A plan of `capacity` places and each level's quota. */
export const plan = (capacity: number, high = 10, medium = 10, low = 10): PlanView => ({
  capacity,
  quotas: { high, medium, low },
})

/** The agency directory (agencies module): members, plan and suspension flags in memory. */
export class FakeAgencyDirectory implements Pick<
  AgencyDirectory,
  | 'holdMembers'
  | 'holdSuspensions'
  | 'member'
  | 'memberById'
  | 'admin'
  | 'plan'
  | 'memberByIdWithPlan'
> {
  members = [ADMIN, COLLAB, OTHER_COLLAB]
  planView = plan(10)
  suspended = { agency: false, operator: false }
  /** A desasociar of the agency is running: a try for the handover lock fails. */
  detaching = false
  calls: string[] = []

  async holdMembers(_agencyId: number, tx: Tx, options: { wait?: boolean } = {}) {
    assertTx(tx)
    this.calls.push(options.wait === false ? 'holdMembers (try)' : 'holdMembers (wait)')
    return !(options.wait === false && this.detaching)
  }

  async holdSuspensions(_agencyId: number, _operatorId: number, tx: Tx) {
    assertTx(tx)
    this.calls.push('holdSuspensions')
    return { ...this.suspended }
  }

  async member(_agencyId: number, email: string) {
    return this.members.find((member) => member.email === email.trim().toLowerCase()) ?? null
  }

  async memberById(_agencyId: number, id: number) {
    return this.members.find((member) => member.id === id) ?? null
  }

  async admin() {
    return this.members.find((member) => member.isAdmin) ?? null
  }

  async plan() {
    this.calls.push('plan')
    return this.planView
  }

  async memberByIdWithPlan(agencyId: number, operatorId: number) {
    return { member: await this.memberById(agencyId, operatorId), plan: this.planView }
  }
}

/** The catalogue's places: Buenos Aires with the city La Plata; anything else is unknown. */
export class FakePlaceResolver implements Pick<PlaceResolver, 'region' | 'city' | 'names'> {
  calls: string[] = []

  async names(ids: { regionId?: number | null; cityId?: number | null }[]) {
    this.calls.push('names')
    const known = ids.some((entry) => entry.regionId === 2 || entry.cityId === 20)
    return {
      regions: new Map(known ? [[2, { id: 2, code: 'BA', name: 'Buenos Aires' }]] : []),
      cities: new Map(
        ids.some((entry) => entry.cityId === 20)
          ? [[20, { id: 20, regionId: 2, name: 'La Plata', regionName: 'Buenos Aires' }]]
          : []
      ),
    }
  }

  async region(input: string) {
    this.calls.push(`region ${input}`)
    return input.toLowerCase() === 'buenos aires'
      ? ok({ id: 2, code: 'BA', name: 'Buenos Aires' })
      : fail('not_found' as const)
  }

  async city(input: string) {
    this.calls.push(`city ${input}`)
    return input.toLowerCase() === 'la plata'
      ? ok({ id: 20, regionId: 2, name: 'La Plata', regionName: 'Buenos Aires' })
      : fail('not_found' as const)
  }
}

export const COROLLA: VersionRef = {
  id: 300,
  name: '2.0 XEI CVT',
  codename: 'corolla-20-xei-cvt',
  year: currentYear(),
  propulsion: 'Nafta',
  transmission: 'Automática',
  power: 170,
  displacement: 1987,
  bodyType: 'Sedán',
  segment: 'C',
  newMarket: true,
  brandId: 100,
  brandName: 'Toyota',
  modelId: 200,
  modelName: 'Corolla',
}

/** The agencies module's branches (AgencyService.branches): the agency's main branch in La Plata. */
export class FakeAgencyService implements Pick<AgencyService, 'branches'> {
  main: { regionId: number | null; cityId: number | null; address: string | null } | null = {
    regionId: 2,
    cityId: 20,
    address: 'Calle 7 1234',
  }
  calls: string[] = []

  async branches(agencyId: number) {
    this.calls.push(`branches ${agencyId}`)
    return (this.main ? [{ ...this.main, isMain: true }] : []) as unknown as Awaited<
      ReturnType<AgencyService['branches']>
    >
  }
}

/** The catalogue's vehicles: Toyota Corolla with one version; "Ambigua" matches two versions. */
export class FakeVehicleResolver implements Pick<VehicleResolver, 'brand' | 'model' | 'version'> {
  async brand(input: string) {
    return input === 'Toyota'
      ? ok({ id: 100, name: 'Toyota', codename: 'toyota', codenames: [], newMarket: true })
      : fail('not_found' as const)
  }

  async model(input: string, brandId: number) {
    return input === 'Corolla' && brandId === 100
      ? ok({
          id: 200,
          name: 'Corolla',
          codename: 'corolla',
          bodyTypes: ['Sedán'],
          newMarket: true,
          brandId: 100,
          brandName: 'Toyota',
        })
      : fail('not_found' as const)
  }

  async version(input: string, modelId: number) {
    if (input === 'Ambigua') return fail('ambiguous' as const)
    return input === COROLLA.name && modelId === 200 ? ok(COROLLA) : fail('not_found' as const)
  }
}

/** A stored listing: an active, 0 km Corolla of this year, responsible the administrator. */
export function listingRow(overrides: Partial<ListingData> = {}): ListingData {
  return {
    id: 1,
    appId: APP_ID,
    agencyId: AGENCY.id,
    adminEmail: AGENCY.adminMail,
    externalId: 'EXT-1',
    refStock: null,
    state: 'active',
    revision: 5,
    exposure: 'high',
    operatorId: ADMIN.id,
    operatorEmail: ADMIN.email,
    brandId: 100,
    modelId: 200,
    versionId: 300,
    brandName: 'Toyota',
    modelName: 'Corolla',
    versionName: '2.0 XEI CVT',
    bodyType: 'Sedán',
    transmission: 'Automática',
    propulsion: 'Nafta',
    year: currentYear(),
    mileage: 0,
    colour: 'Gris',
    description: null,
    customSpecs: [],
    priceCurrency: null,
    priceAmount: null,
    downPaymentCurrency: null,
    downPaymentAmount: null,
    installmentCurrency: null,
    installmentAmount: null,
    warrantyCertificate: false,
    regionId: null,
    cityId: null,
    regionName: null,
    cityName: null,
    address: null,
    phone: ADMIN.phones[0],
    slug: 'toyota-corolla-2026-abcdefgh',
    photoKeys: [],
    photoCount: 0,
    ...overrides,
  }
}

const attribute = (column: string) =>
  column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())

/** Column values as the stored row would read them back. */
function applyValues(row: Record<string, unknown>, values: ListingValues) {
  for (const [column, value] of Object.entries(values)) {
    row[attribute(column)] = column === 'custom_specs' ? JSON.parse(value as string) : value
  }
}

/** The listing store over `rows`; `calls` names each method asked, with " (tx)" inside a transaction. */
export class FakeListingStore implements Pick<
  ListingStore,
  | 'find'
  | 'findMany'
  | 'findByAdminMail'
  | 'externalIdTaken'
  | 'takenIn'
  | 'insert'
  | 'insertMany'
  | 'update'
  | 'holdActivations'
  | 'activeByExposure'
  | 'countActive'
  | 'lockActive'
  | 'suspend'
  | 'lock'
  | 'refreshPhotoCache'
> {
  rows: ListingData[] = []
  calls: string[] = []
  /** Runs once before the next UPDATE: a writer of another process getting there first. */
  beforeUpdate?: (row: ListingData) => void
  /** Thrown by the next insert (a unique violation lost to a concurrent create). */
  insertError?: unknown

  #log(name: string, tx?: Tx) {
    if (tx) assertTx(tx)
    this.calls.push(tx ? `${name} (tx)` : name)
  }

  #match(appId: number | null, agencyId: number, externalId: string) {
    return this.rows.find(
      (row) =>
        (appId === null || row.appId === appId) &&
        row.agencyId === agencyId &&
        row.externalId.toLowerCase() === externalId.toLowerCase()
    )
  }

  async find(
    appId: number,
    agencyId: number,
    externalId: string,
    options: { forUpdate?: boolean } = {},
    tx?: Tx
  ) {
    this.#log(options.forUpdate ? 'find for update' : 'find', tx)
    const row = this.#match(appId, agencyId, externalId)
    return row ? { ...row } : null
  }

  /** A stock sync's batch read: the app's listings of the agency by ExternalId (lower case). */
  async findMany(appId: number, agencyId: number, externalIds: string[]) {
    this.#log('findMany')
    const wanted = new Set(externalIds.map((externalId) => externalId.toLowerCase()))
    return new Map(
      this.rows
        .filter(
          (row) =>
            row.appId === appId &&
            row.agencyId === agencyId &&
            wanted.has(row.externalId.toLowerCase())
        )
        .map((row): [string, ListingData] => [row.externalId.toLowerCase(), { ...row }])
    )
  }

  async findByAdminMail(appId: number, adminMail: string, externalId: string) {
    this.#log('findByAdminMail')
    const row = this.rows.find(
      (candidate) =>
        candidate.appId === appId &&
        candidate.adminEmail === adminMail.trim().toLowerCase() &&
        candidate.externalId.toLowerCase() === externalId.toLowerCase()
    )
    return row ? { ...row } : null
  }

  async externalIdTaken(agencyId: number, externalId: string, tx?: Tx) {
    this.#log('externalIdTaken', tx)
    return this.#match(null, agencyId, externalId) !== undefined
  }

  async takenIn(agencyId: number, externalIds: string[], tx: Tx) {
    this.#log('takenIn', tx)
    return new Set(
      externalIds
        .filter((externalId) => this.#match(null, agencyId, externalId))
        .map((externalId) => externalId.toLowerCase())
    )
  }

  async insert(values: ListingValues, tx?: Tx) {
    this.#log('insert', tx)
    return this.#insert(values)
  }

  /** One statement for all: a unique violation (`insertError`, thrown once here) leaves none of them. */
  async insertMany(rows: ListingValues[], tx: Tx) {
    this.#log(`insertMany ${rows.length}`, tx)
    if (rows.length > 0 && this.insertError) {
      const error = this.insertError
      this.insertError = undefined
      throw error
    }
    return rows.map((values) => this.#insert(values))
  }

  #insert(values: ListingValues) {
    if (this.insertError) throw this.insertError
    const row = listingRow({ id: this.rows.length + 100, photoKeys: [], photoCount: 0 })
    applyValues(row as unknown as Record<string, unknown>, values)
    this.rows.push(row)
    return row.id
  }

  async update(id: number, revision: number, values: ListingValues, tx?: Tx) {
    this.#log('update', tx)
    const row = this.rows.find((candidate) => candidate.id === id)
    if (row && this.beforeUpdate) {
      const before = this.beforeUpdate
      this.beforeUpdate = undefined
      before(row)
    }
    if (!row || row.revision !== revision) return null
    applyValues(row as unknown as Record<string, unknown>, values)
    row.revision += 1
    return { ...row }
  }

  async holdActivations(_agencyId: number, tx: Tx) {
    this.#log('holdActivations', tx)
  }

  async activeByExposure(agencyId: number, options: { except?: number } = {}, tx?: Tx) {
    this.#log('activeByExposure', tx)
    const used: Record<Exposure, number> = { high: 0, medium: 0, low: 0 }
    for (const row of this.rows) {
      if (row.agencyId === agencyId && row.state === 'active' && row.id !== options.except) {
        used[row.exposure]++
      }
    }
    return used
  }

  async countActive(agencyId: number, tx?: Tx) {
    this.#log('countActive', tx)
    return this.rows.filter((row) => row.agencyId === agencyId && row.state === 'active').length
  }

  /** Newest first: rows added later count as more recently updated. */
  async lockActive(scope: ActiveScope, tx: Tx) {
    this.#log('lockActive', tx)
    const active = this.rows.filter(
      (row) =>
        row.state === 'active' &&
        ('operatorId' in scope
          ? row.operatorId === scope.operatorId
          : row.agencyId === scope.agencyId)
    )
    return 'newest' in scope ? active.reverse().slice(0, scope.newest) : active
  }

  async suspend(ids: number[], tx: Tx) {
    this.#log(`suspend ${ids.join(',')}`, tx)
    for (const row of this.rows) {
      if (ids.includes(row.id))
        Object.assign(row, { state: 'suspended', revision: row.revision + 1 })
    }
  }

  async lock(listingId: number, tx: Tx) {
    this.#log(`lock ${listingId}`, tx)
  }

  async refreshPhotoCache(listingId: number, options: { bumpRevision?: boolean }, tx: Tx) {
    this.#log(`refreshPhotoCache ${listingId}${options.bumpRevision ? ' bumping' : ''}`, tx)
  }

  /** Active listings of the agency (`count` of them, any app) at `exposure`, besides the rest. */
  addActive(count: number, exposure: Exposure = 'low') {
    for (let index = 0; index < count; index++) {
      this.rows.push(
        listingRow({
          id: 1000 + this.rows.length,
          appId: OTHER_APP_ID,
          externalId: `OTHER-${this.rows.length}`,
          exposure,
        })
      )
    }
  }
}

/** The photo store: photos still pending, by id; `calls` as the listing store's. */
export class FakeListingPhotoStore implements Pick<ListingPhotoStore, 'settle'> {
  pending = new Set<number>()
  calls: string[] = []

  async settle(photoId: number, _outcome: PhotoOutcome, tx: Tx) {
    assertTx(tx)
    this.calls.push(`settle ${photoId}`)
    return this.pending.delete(photoId)
  }
}

/** Photo installs (listing id and URLs), and whether each ran in a transaction. */
export class FakePhotoSet implements Pick<PhotoSet, 'install' | 'sources'> {
  installs: { listingId: number; urls: string[] }[] = []
  /** The photo URLs as sent, by listing id (what `sources` answers). */
  sent = new Map<number, string[]>()
  reads: number[] = []

  constructor(private store: FakeListingStore) {}

  async install(listing: { id: number }, urls: string[], tx: Tx) {
    assertTx(tx)
    this.installs.push({ listingId: listing.id, urls })
    const row = this.store.rows.find((candidate) => candidate.id === listing.id)
    if (row) row.photoCount = urls.length
    this.sent.set(listing.id, urls)
  }

  async sources(listingId: number) {
    this.reads.push(listingId)
    return this.sent.get(listingId) ?? []
  }
}

export class FakeListingEvents implements Pick<ListingEvents, 'stateChanged' | 'photoSettled'> {
  stateChanges: { listingId: number; to: ListingState; cause: StateCause }[] = []
  photosSettled: number[] = []

  async photoSettled(photoId: number, tx: Tx) {
    assertTx(tx)
    this.photosSettled.push(photoId)
  }

  async stateChanged(listing: ListingData, to: ListingState, cause: StateCause, tx: Tx) {
    assertTx(tx)
    this.stateChanges.push({ listingId: listing.id, to, cause })
  }
}

/** A fake asked to lock without a transaction is a bug of the action: fail the spec. */
function assertTx(tx: Tx | undefined) {
  if (!tx || !(tx as any).fake) throw new Error('expected the fake transaction')
}

/** The actions wired to one set of fakes, as the container would wire them to the real ones. */
export function world() {
  const directory = new FakeAgencyDirectory()
  const store = new FakeListingStore()
  const places = new FakePlaceResolver()
  const vehicles = new FakeVehicleResolver()
  const photoSet = new FakePhotoSet(store)
  const events = new FakeListingEvents()
  const unitOfWork = new FakeUnitOfWork()
  const writers = new ListingWriters()
  const agencies = new FakeAgencyService()
  // The fakes cover the methods the actions call; the classes they stand for have more.
  const asDirectory = directory as unknown as AgencyDirectory
  const asStore = store as unknown as ListingStore
  const asEvents = events as unknown as ListingEvents
  const applyEdit = new ApplyEdit(asDirectory, places as unknown as PlaceResolver, asStore)
  const changer = new ChangeListing(
    asDirectory,
    applyEdit,
    asStore,
    photoSet as unknown as PhotoSet,
    asEvents,
    writers,
    unitOfWork,
    vehicles as unknown as VehicleResolver
  )
  const creator = new CreateListing(
    vehicles as unknown as VehicleResolver,
    applyEdit,
    asStore,
    photoSet as unknown as PhotoSet,
    unitOfWork,
    agencies as unknown as AgencyService
  )
  const photos = new FakeListingPhotoStore()
  const settler = new SettlePhoto(
    unitOfWork,
    asStore,
    photos as unknown as ListingPhotoStore,
    asEvents
  )
  const suspender = new SuspendListings(asStore, asEvents)
  return {
    directory,
    agencies,
    store,
    places,
    photos,
    photoSet,
    events,
    unitOfWork,
    writers,
    applyEdit,
    changer,
    creator,
    settler,
    suspender,
  }
}
