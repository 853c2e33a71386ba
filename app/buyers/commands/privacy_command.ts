/*
 * What `privacy:export` and `privacy:forget` share (docs/design.md §16): the
 * person by --email, --telefono and/or --documento, one agency by --agency or
 * every agency, and one audit row per agency touched that holds no personal
 * data. The output never repeats the identifiers.
 */
import { flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

export abstract class PrivacyCommand extends AppCommand {
  @flags.string({ description: "The buyer's e-mail" })
  declare email?: string

  @flags.string({
    flagName: 'telefono',
    description: "The buyer's phone (without area code: only beside --email or --documento)",
  })
  declare telefono?: string

  @flags.string({ flagName: 'documento', description: "The buyer's identity document" })
  declare documento?: string

  @flags.string({
    flagName: 'agency',
    description: 'Administrator e-mail of one agency (default: every agency)',
  })
  declare agency?: string

  protected async perform(kind: 'access' | 'erasure') {
    const support = await this.make(() => import('#buyers/services/privacy/support_request'))
    const result = await support.execute(
      kind,
      { email: this.email, phone: this.telefono, document: this.documento },
      this.agency
    )
    if (!result.ok) {
      this.fail(
        result.reason === 'agency_not_found'
          ? `No agency administered by ${this.agency}`
          : 'Name the person: --email, --documento (at least 6 digits) or --telefono with its area code ' +
              '(a phone without one only beside --email or --documento)'
      )
      return null
    }
    return result.value
  }
}
