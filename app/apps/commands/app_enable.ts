import AppDisable from './app_disable.js'

export default class AppEnable extends AppDisable {
  static commandName = 'app:enable'
  static description =
    'Enable a disabled app again: its tokens that had not expired or been revoked work again'

  protected enabled = true
}
