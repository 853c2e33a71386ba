/*
 * `ace app:ability APP_ID --add|--remove ABILITY` (docs/design.md §19): an
 * operator grants or withdraws an ability of an existing app, keeping its
 * credentials. Web processes see it within the credential memory (5 s); this
 * process forgets its own at once.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import AppStore, { type AppRow } from '#apps/stores/app_store'
import { CredentialMemory } from '#apps/services/credential_memory'
import type { Ability } from '#core/auth/abilities'
import { fail, ok, type Result } from '#core/result'

export type AbilityChange = 'add' | 'remove'

@inject()
export default class SetAppAbility {
  constructor(
    private apps: AppStore,
    private memory: CredentialMemory,
    private logger: Logger
  ) {}

  async execute(
    appId: number,
    change: AbilityChange,
    ability: Ability
  ): Promise<Result<AppRow, 'app_not_found'>> {
    const app = await this.apps.find(appId)
    if (!app) return fail('app_not_found')
    const held = app.abilities.includes(ability)
    // Adding a held ability or removing a missing one writes nothing.
    if (held === (change === 'add')) return ok(app)
    const abilities =
      change === 'add'
        ? [...app.abilities, ability]
        : app.abilities.filter((item) => item !== ability)
    const changed = await this.apps.setAbilities(appId, abilities)
    if (!changed) return fail('app_not_found')
    this.memory.forget()
    this.logger.info({ appId }, `app ability ${change === 'add' ? 'added' : 'removed'}: ${ability}`)
    return ok(changed)
  }
}
