/*
 * The first five minutes (README): on the boot that created the demo app
 * (app/apps/start.ts hands it on), `npm start` in development also makes a
 * demo agency linked to it, a few listings whose photos are drawn here and
 * stored through the listings' photo storage (never downloaded), and an
 * inquiry on one of them; it prints a buyers' page and a curl with the demo
 * token. `DEMO_DATA=false` skips it; never in production, never in tests.
 *
 * The buyers module is the only one that may use agencies, listings and leads
 * together (docs/decisions/buyers.md). Every write goes through the modules'
 * own actions; the calls are all in `createDemoData` below.
 */
import app from '@adonisjs/core/services/app'
import sharp from 'sharp'
import type { StartContext, StartStep } from '#core/modules'
import { settings } from '#core/settings'
import UnitOfWork from '#core/database/unit_of_work'
import CreateAgency from '#agencies/services/create_agency'
import AgencyDirectory from '#agencies/services/agency_directory'
import PlaceResolver from '#catalog/services/place_resolver'
import CreateListing from '#listings/services/create_listing'
import KeepPhoto from '#listings/services/keep_photo'
import { listingCreateValidator, toCreateInput } from '#listings/validators/listing'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import { readIntake } from '#leads/validators/intake_request'

export const DEMO_ADMIN_MAIL = 'demo@agencia-demo.com.ar'

/** A demo vehicle: ExternalId, brand / model / version, gearbox / fuel, age in years, km, colour (name, hex), price. */
type DemoVehicle = [string, string[], string[], number, number, string[], [string, number], string]

/*
 * Versions are named as Argentine dealers name them; the bundled catalogue does
 * not know them, so they carry Transmision and Propulsion.
 */
// prettier-ignore
const VEHICLES: DemoVehicle[] = [
  ['DEMO-1', ['Toyota', 'Corolla', '2.0 XEI CVT'], ['CVT', 'Nafta'], 0, 0, ['Rojo', '#b3261e'], ['USD', 32500], 'Unidad 0 km, entrega inmediata.'],
  ['DEMO-2', ['Volkswagen', 'Amarok', 'V6 Extreme'], ['Automática', 'Diésel'], 3, 48000, ['Azul', '#1f4e8c'], ['USD', 27900], 'Única dueña, service oficial al día.'],
  ['DEMO-3', ['Peugeot', '208', '1.6 Feline Tiptronic'], ['Automática', 'Nafta'], 2, 21500, ['Blanco', '#d9d9d6'], ['ARS', 18900000], 'Impecable, con garantía de la agencia.'],
  ['DEMO-4', ['Toyota', 'Hilux', '2.8 SRX 4x4 AT'], ['Automática', 'Diésel'], 5, 96000, ['Negro', '#2e2e2e'], ['USD', 24500], 'Lista para transferir.'],
]

/** The demo's listings: wire bodies of POST /v3/publicaciones, and the colour their photos are drawn in. */
export const DEMO_LISTINGS = VEHICLES.map(
  ([
    externalId,
    [brand, model, version],
    [gearbox, fuel],
    age,
    km,
    [color, colour],
    price,
    text,
  ]) => ({
    colour,
    body: {
      ExternalId: externalId,
      Marca: brand,
      Modelo: model,
      Version: version,
      Transmision: gearbox,
      Propulsion: fuel,
      VersionYear: new Date().getFullYear() - age,
      Kilometraje: km,
      Color: color,
      Descripcion: `${text} (Datos de demostración.)`,
      Precio: { Moneda: price[0], Importe: price[1] },
    },
  })
)

/** Photos per listing; their URLs are placeholders under a reserved domain (a photo row names its source), never fetched. */
const PHOTOS = 2
const photoSource = (externalId: string, index: number) =>
  `https://demo.example.com/fotos/${externalId.toLowerCase()}-${index + 1}.jpg`

export type DemoSwitches = { nodeEnv: string; demoData: boolean }

export type DemoOptions = {
  /** Default: the environment (settings). */
  switches?: DemoSwitches
  /** Default: DEMO_ADMIN_MAIL (a test takes its own, the test database outlives a run). */
  adminMail?: string
}

/** Why the demo data is not made in this environment, or null when it is. */
export function demoSkipped({ nodeEnv, demoData }: DemoSwitches): string | null {
  if (nodeEnv === 'production') return 'production'
  if (nodeEnv === 'test') return 'tests'
  if (!demoData) return 'DEMO_DATA=false'
  return null
}

export type DemoData = {
  adminMail: string
  listings: { id: number; externalId: string; slug: string }[]
  inquirySid: string
  pageUrl: string
  curl: string
}

/**
 * The start step. Does nothing unless the apps step created the demo app on
 * this boot. A failure is reported in one line and the service starts anyway.
 */
export async function runDemo(
  context: StartContext,
  options: DemoOptions = {}
): Promise<DemoData | null> {
  if (!context.demoApp) return null
  const skipped = demoSkipped(
    options.switches ?? { nodeEnv: settings.nodeEnv, demoData: settings.demoData }
  )
  if (skipped) {
    context.logger.info(`No demo data (${skipped}).`)
    return null
  }
  let demo: DemoData
  try {
    demo = await createDemoData(context.demoApp, context.publicUrl, options.adminMail)
  } catch (error) {
    context.logger.warning(`No demo data: ${error instanceof Error ? error.message : error}`)
    return null
  }
  context.ui
    .sticker()
    .add(`Demo agency ${demo.adminMail}: ${demo.listings.length} listings, 1 inquiry.`)
    .add(`Buyers' page: ${demo.pageUrl}`)
    .add(demo.curl)
    .render()
  return demo
}

export const steps: StartStep[] = [{ run: (context) => runDemo(context).then(() => {}) }]

/** The agency, its listings with their photos settled, and an inquiry, through the modules' actions. */
export async function createDemoData(
  demoApp: { id: number; token: string },
  publicUrl: string,
  adminMail = DEMO_ADMIN_MAIL
): Promise<DemoData> {
  const caller = { id: demoApp.id }
  const places = await app.container.make(PlaceResolver)
  const region = await places.region('AR-C')
  const regionId = region.ok ? region.value.id : null

  const unitOfWork = await app.container.make(UnitOfWork)
  const agencyCreator = await app.container.make(CreateAgency)
  const created = await unitOfWork.run((trx) =>
    agencyCreator.execute(
      {
        appId: demoApp.id,
        adminEmail: adminMail,
        tradeName: 'Agencia Demo',
        admin: {
          firstName: 'Dana',
          lastName: 'Demo',
          phones: ['011 4555-0100'],
          createdViaApi: true,
        },
        mainBranch: { regionId, address: 'Av. Demostración 1234', phone: '011 4555-0100' },
        receivesOtherLeads: true,
      },
      trx
    )
  )
  if (!created.ok) throw new Error(`${adminMail} exists already`)
  const directory = await app.container.make(AgencyDirectory)
  const agency = await directory.forApp(demoApp.id, adminMail)
  if (!agency) throw new Error('the demo agency is not linked to the demo app')

  const creator = await app.container.make(CreateListing)
  const keeper = await app.container.make(KeepPhoto)
  const listings: DemoData['listings'] = []
  for (const { colour, body } of DEMO_LISTINGS) {
    const wire = {
      ...body,
      Fotos: Array.from({ length: PHOTOS }, (_, i) => photoSource(body.ExternalId, i)),
    }
    const input = toCreateInput(await listingCreateValidator.validate(wire))
    const listing = await creator.execute(caller, agency, input)
    if (!listing.ok) {
      const details = 'details' in listing ? JSON.stringify(listing.details) : ''
      throw new Error(`listing ${body.ExternalId}: ${listing.reason} ${details}`)
    }
    const { id, slug } = listing.value.record.listing
    const photos = await keeper.pending(id)
    for (const [index, photo] of photos.entries()) {
      const kept = await keeper.execute(photo, await drawCar(colour, index))
      if (!kept.ok) throw new Error(`a drawn photo was refused (${kept.details?.issue})`)
    }
    listings.push({ id, externalId: body.ExternalId, slug })
  }

  const request = await readIntake({
    ExternalId: DEMO_LISTINGS[0].body.ExternalId,
    OrigenLead: 'App',
    Interesado: {
      Interes: 'Compra',
      Nombre: 'Lucía',
      Apellido: 'Gómez',
      Email: 'lucia.gomez@example.com',
      Telefono: '+54 11 5555-1234',
      Comentario: '¿Sigue disponible? ¿Toman usados? (Consulta de demostración.)',
    },
  })
  if (!request.ok) throw new Error(`the inquiry is invalid: ${JSON.stringify(request.errors)}`)
  const receiver = await app.container.make(ReceiveInquiry)
  const inquiry = await receiver.execute({
    appId: demoApp.id,
    agencyId: agency.id,
    agency,
    request: request.value,
  })
  if (!inquiry.ok) throw new Error(`the inquiry was refused: ${inquiry.reason}`)

  return {
    adminMail,
    listings,
    inquirySid: inquiry.value.sid,
    pageUrl: `${publicUrl}/autos/${listings[0].slug}`,
    curl: `curl -H "Authorization: Bearer ${demoApp.token}" ${publicUrl}/v3/publicaciones/${adminMail}`,
  }
}

/** A 1280×720 JPEG of a car in `colour`, from one of two sides. */
export async function drawCar(colour: string, view: number): Promise<Buffer> {
  const flip = view % 2 === 1 ? 'translate(1280,0) scale(-1,1)' : ''
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
  <rect width="1280" height="720" fill="#dfe9f3"/>
  <rect y="500" width="1280" height="220" fill="#8a9099"/>
  <g transform="${flip}">
    <path d="M150 470 L220 390 L420 330 L760 330 L930 400 L1110 430 L1130 500 L150 500 Z" fill="${colour}"/>
    <path d="M450 350 L740 350 L860 405 L420 405 Z" fill="#f4f8fb" opacity="0.85"/>
    <circle cx="340" cy="505" r="70" fill="#222"/><circle cx="340" cy="505" r="32" fill="#c8ccd1"/>
    <circle cx="940" cy="505" r="70" fill="#222"/><circle cx="940" cy="505" r="32" fill="#c8ccd1"/>
  </g>
</svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()
}
