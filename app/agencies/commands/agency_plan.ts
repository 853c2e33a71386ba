import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

/** Sets an agency's contracted products: active-listing capacity and quota per exposure. */
export default class AgencyPlan extends AppCommand {
  static commandName = 'agency:plan'
  static description = 'Set the plan of an agency (capacity and Alta/Media/Baja quotas)'

  @args.string({ description: 'Administrator e-mail of the agency' })
  declare adminmail: string

  @flags.number({ description: 'Active listings allowed', required: true })
  declare capacity: number

  @flags.number({ description: 'Quota of Alta exposure', required: true })
  declare alta: number

  @flags.number({ description: 'Quota of Media exposure', required: true })
  declare media: number

  @flags.number({ description: 'Quota of Baja exposure', required: true })
  declare baja: number

  async run() {
    const { planValidator, toPlan } = await import('#agencies/validators/agency_validators')
    const [error, given] = await planValidator.tryValidate({
      capacity: this.capacity,
      alta: this.alta,
      media: this.media,
      baja: this.baja,
    })
    if (error) {
      return this.fail('--capacity, --alta, --media and --baja must be whole numbers ≥ 0')
    }
    const plan = toPlan(given)
    const service = await this.make(() => import('#agencies/services/agency_service'))
    const agency = await service.setPlan(this.adminmail, plan)
    if (!agency) {
      return this.fail(`No agency administered by ${this.adminmail}`)
    }
    this.logger.success(
      `Plan of ${agency.adminEmail}: capacity ${plan.capacity}, Alta ${plan.quotas.high}, Media ${plan.quotas.medium}, Baja ${plan.quotas.low}`
    )
  }
}
