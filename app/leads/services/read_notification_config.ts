/* GET of the lead-notification configuration of one agency for one app (null: none stored). */
import { inject } from '@adonisjs/core'
import NotificationConfigStore from '#leads/stores/notification_config_store'

@inject()
export default class ReadNotificationConfig {
  constructor(private configs: NotificationConfigStore) {}

  execute(appId: number, agencyId: number) {
    return this.configs.of(appId, agencyId)
  }
}
