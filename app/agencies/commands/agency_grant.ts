import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

/** Customer support (docs/spec.md §4.2 rule 1): lets an app see an already registered agency. */
export default class AgencyGrant extends AppCommand {
  static commandName = 'agency:grant'
  static description = 'Link an existing agency (by its admin e-mail) to an app'

  @args.string({ description: 'Administrator e-mail of the agency' })
  declare adminmail: string

  @flags.number({ flagName: 'app', description: 'Id of the app', required: true })
  declare appId: number

  @flags.boolean({
    description: 'The app also receives catalogue and other listing-less inquiries',
  })
  declare otherLeads: boolean

  async run() {
    if (!Number.isInteger(this.appId) || this.appId < 1) {
      return this.fail('--app must be an app id')
    }
    const grant = await this.make(() => import('#agencies/services/grant_agency'))
    const granted = await grant.execute(this.adminmail, this.appId, Boolean(this.otherLeads))
    if (!granted.ok) {
      return this.fail(
        granted.reason === 'agency_not_found'
          ? `No agency administered by ${this.adminmail}`
          : `No app ${this.appId}`
      )
    }
    this.logger.success(
      `Agency ${this.adminmail} linked to app ${this.appId}${this.otherLeads ? ' (receives other leads)' : ''}`
    )
  }
}
