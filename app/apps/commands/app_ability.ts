import { flags } from '@adonisjs/core/ace'
import { ABILITIES, type Ability } from '#core/auth/abilities'
import { AppIdCommand } from './apps_command.js'

/** Grants or withdraws one ability of an existing app; its tokens stay valid (docs/design.md §19). */
export default class AppAbility extends AppIdCommand {
  static commandName = 'app:ability'
  static description = `Add or remove an ability of an app (${ABILITIES.join(', ')}); seen by every web process within 5 s`

  @flags.string({ description: 'Ability to grant' })
  declare add: string | undefined

  @flags.string({ description: 'Ability to withdraw' })
  declare remove: string | undefined

  protected async runFor(id: number) {
    if ((this.add === undefined) === (this.remove === undefined)) {
      return this.fail('Give exactly one of --add ABILITY or --remove ABILITY')
    }
    const ability = (this.add ?? this.remove)!
    if (!ABILITIES.includes(ability as Ability)) {
      return this.fail(`Unknown ability: ${ability}. Known: ${ABILITIES.join(', ')}`)
    }
    const setter = await this.make(() => import('#apps/services/set_app_ability'))
    const change = this.add !== undefined ? 'add' : 'remove'
    const result = await setter.execute(id, change, ability as Ability)
    if (!result.ok) return this.fail(`No app with id ${id}`)
    const held = result.value.abilities.join(', ') || 'none'
    this.logger.success(`App ${id} abilities: ${held}`)
  }
}
