/*
 * Ace loader for the commands of core and of the feature modules (the command
 * side of their providers, app/<module>/provider.ts). Command files import only ace at the top; their
 * work is imported inside run().
 */
import { ListLoader } from '@adonisjs/core/ace'
import type { CommandMetaData } from '@adonisjs/ace/types'

const loader = Promise.all([
  import('#core/commands/start'),
  import('#core/commands/jobs_work'),
  import('#core/commands/jobs_run'),
  import('#core/commands/openapi_dump'),
  import('#core/commands/migration_check'),
  import('#leads/commands/deliveries_list'),
  import('#leads/commands/deliveries_retry'),
  import('#buyers/commands/privacy_export'),
  import('#buyers/commands/privacy_forget'),
  import('#apps/commands/app_create'),
  import('#apps/commands/app_token'),
  import('#apps/commands/app_tokens'),
  import('#apps/commands/app_revoke'),
  import('#apps/commands/app_disable'),
  import('#apps/commands/app_enable'),
  import('#apps/commands/app_ability'),
  import('#agencies/commands/agency_grant'),
  import('#agencies/commands/agency_plan'),
  import('#agencies/commands/agency_suspend'),
  import('#listings/commands/listing_state'),
  import('#listings/commands/stock_sync'),
  import('#catalog/commands/catalog_import'),
]).then((modules) => new ListLoader(modules.map((module) => module.default)))

export async function getMetaData() {
  const commands = await loader
  return commands.getMetaData()
}

export async function getCommand(metaData: CommandMetaData) {
  const commands = await loader
  return commands.getCommand(metaData)
}
