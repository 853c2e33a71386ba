import { PrivacyCommand } from './privacy_command.js'

/** Suppression (art. 16 Ley 25.326): empties every copy of the person's data, tells the apps. */
export default class PrivacyForget extends PrivacyCommand {
  static commandName = 'privacy:forget'
  static description =
    "Suppress a buyer's data at one or every agency (inquiry fields, deliveries, events, kept responses, mail files)"

  async run() {
    const outcome = await this.perform('erasure')
    if (!outcome) return
    this.logger.success(
      `Buyer data suppressed in ${outcome.matched} inquiries at ${outcome.agencies.length} agencies`
    )
  }
}
