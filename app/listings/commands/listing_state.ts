import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

const STATES = ['active', 'suspended', 'archived'] as const

/**
 * Customer support: moves a listing to a state with the app's own rules
 * (docs/design.md §7); its app gets the state event, Causa Administracion
 * (docs/design.md §14).
 */
export default class ListingState extends AppCommand {
  static commandName = 'listing:state'
  static description =
    'Set the state of a listing (agency admin e-mail + ExternalId) as the administration'

  @args.string({ description: 'Administrator e-mail of the agency' })
  declare adminmail: string

  @args.string({ description: 'ExternalId of the listing' })
  declare externalid: string

  @flags.string({ description: 'active, suspended or archived', required: true })
  declare to: string

  async run() {
    const to = STATES.find((state) => state === this.to)
    if (!to) return this.fail('--to must be active, suspended or archived')
    const { default: app } = await import('@adonisjs/core/services/app')
    const { default: ListingStore } = await import('#listings/stores/listing_store')
    const { default: AgencyDirectory } = await import('#agencies/services/agency_directory')
    const { default: ChangeListing } = await import('#listings/services/change_listing')
    // ExternalId is unique per agency (whatever the app), so this names one listing.
    const listings = await app.container.make(ListingStore)
    const listing = await listings.findOfAgency(this.adminmail, this.externalid)
    const directory = await app.container.make(AgencyDirectory)
    const agency = listing && (await directory.forApp(listing.appId, listing.adminEmail))
    if (!listing || !agency) {
      return this.fail(`No listing ${this.externalid} of ${this.adminmail}`)
    }
    const changer = await app.container.make(ChangeListing)
    const done = await changer.execute({
      caller: { id: listing.appId },
      agency,
      externalId: listing.externalId,
      change: to === 'archived' ? { kind: 'archive' } : { kind: 'state', active: to === 'active' },
      cause: 'administration',
    })
    if (!done.ok) return this.fail(`Refused: ${done.reason}`)
    this.logger.success(`Listing ${listing.externalId} of ${listing.adminEmail}: ${to}`)
  }
}
