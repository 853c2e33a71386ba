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
    const service = await this.make(() => import('#agencies/services/set_suspension'))
    const suspended = !this.off
    const done = this.operator
      ? await service.operator(this.email, suspended)
      : await service.agency(this.email, suspended)
    if (!done) {
      return this.fail(`No ${this.operator ? 'operator' : 'agency'} with ${this.email}`)
    }
    this.logger.success(
      `${this.operator ? 'Operator' : 'Agency'} ${this.email} ${suspended ? 'suspended' : 'reinstated'}`
    )
  }
}
