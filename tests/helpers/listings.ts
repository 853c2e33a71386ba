/*
 * Listings for tests of other modules: created through the listings service
 * (no HTTP), on the catalogue fixture, with unique ExternalIds. A new (0 km)
 * Toyota Corolla by default, which needs no photos.
 *
 *   const { app } = await createCaller()
 *   const fixture = await createAgency(app)
 *   const listing = await createListing(app, fixture, { Precio: { Moneda: 'USD', Importe: 25000 } })
 *   const suspended = await createListing(app, fixture, { Activa: false })
 */
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import type { AgencyFixture } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import AgencyDirectory from '#agencies/services/agency_directory'
import CreateListing from '#listings/services/create_listing'
import ChangeListing from '#listings/services/change_listing'
import ListingDirectory, { type ListingSnapshot } from '#listings/services/listing_directory'
import { listingCreateValidator, toCreateInput } from '#listings/validators/listing'

let counter = 0

/** A unique, valid ExternalId. */
export function uniqueExternalId(prefix = 'ext') {
  counter += 1
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}`
}

/** Wire body of a valid creation (PublicacionEdit + ExternalId, Marca, Modelo, Version). */
export function listingBody(overrides: Record<string, unknown> = {}) {
  return {
    ExternalId: uniqueExternalId(),
    Marca: 'Toyota',
    Modelo: 'Corolla',
    Version: '2.0 XEI CVT',
    VersionYear: DateTime.now().year,
    Kilometraje: 0,
    Color: 'Gris plata',
    Descripcion: 'Unidad 0 km, entrega inmediata.',
    Precio: { Moneda: 'USD', Importe: 32500 },
    ...overrides,
  }
}

/**
 * Creates a listing of `caller` for the agency of `fixture`. `overrides` are
 * wire fields of the creation body; `Archivada: true` archives it afterwards.
 * Returns the listing's snapshot (ListingDirectory.forInquiry).
 */
export async function createListing(
  caller: { id: number },
  fixture: Pick<AgencyFixture, 'agency'>,
  overrides: Record<string, unknown> & { Archivada?: boolean } = {}
): Promise<ListingSnapshot> {
  await seedCatalog()
  const { Archivada: archived, ...fields } = overrides
  const input = toCreateInput(await listingCreateValidator.validate(listingBody(fields)))
  const agency = await new AgencyDirectory().forApp(caller.id, fixture.agency.adminMail)
  if (!agency) throw new Error('createListing: the agency is not linked to the caller')
  const creator = await app.container.make(CreateListing)
  const created = await creator.execute(caller, agency, input)
  if (!created.ok) {
    throw new Error(`createListing: ${created.reason} ${JSON.stringify(created.details ?? '')}`)
  }
  if (archived) {
    const changer = await app.container.make(ChangeListing)
    const done = await changer.execute({
      caller,
      agency,
      externalId: input.externalId,
      change: { kind: 'archive' },
    })
    if (!done.ok) throw new Error(`createListing: archive failed: ${done.reason}`)
  }
  const directory = await app.container.make(ListingDirectory)
  return (await directory.forInquiry(created.value.agency.id, input.externalId))!
}
