import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

/** Customer support: suspends (or with --off reinstates) an agency or one of its people. */
export default class AgencySuspend extends AppCommand {
  static commandName = 'agency:suspend'
  static description =
    'Suspend an agency (by admin e-mail) or, with --operator, one person; --off reinstates'

  @args.string({ description: 'Administrator e-mail of the agency, or the person with --operator' })
  declare email: string

  @flags.boolean({ description: 'The e-mail is a person (operator), not an agency' })
  declare operator: boolean

  @flags.boolean({ description: 'Reinstate instead of suspending' })
  declare off: boolean

  async run() {
    const who = this.operator ? 'operator' : 'agency'
    const suspended = !this.off
    const service = await this.make(() => import('#agencies/services/set_suspension'))
    const done = await service[who](this.email, suspended)
    if (!done) return this.fail(`No ${who} with ${this.email}`)
    const what = suspended ? 'suspended' : 'reinstated'
    this.logger.success(`${this.operator ? 'Operator' : 'Agency'} ${this.email} ${what}`)
  }
}
