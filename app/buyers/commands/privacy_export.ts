import { PrivacyCommand } from './privacy_command.js'

/** Access (art. 14 Ley 25.326): prints everything held about the person as one JSON object. */
export default class PrivacyExport extends PrivacyCommand {
  static commandName = 'privacy:export'
  static description =
    "Print a buyer's inquiries (as the API shows them, with their deliveries) at one or every agency, as JSON"

  async run() {
    const outcome = await this.perform('access')
    if (!outcome) return
    this.printJson({
      Consultas: outcome.matched,
      Agencias: outcome.agencies.map((agency) => ({
        AdminMail: agency.adminMail,
        Consultas: agency.consultas,
      })),
    })
  }
}
