/*
 * What the invitation URI (`/v3/agencias/{adminmail}`) shows an app: its
 * agency once registered, its pending invitation, or that it expired. Another
 * app's agency or invitation is never visible.
 */
import { DateTime } from 'luxon'
import Invitation from '#agencies/models/invitation'
import Agency from '#agencies/models/agency'
import { normalizeEmail } from './emails.js'

export type InvitationStatusView =
  | { state: 'registered'; agency: Agency }
  | { state: 'pending'; invitation: Invitation }
  | { state: 'expired' }
  | { state: 'unknown' }

export default class InvitationStatus {
  async execute(appId: number, adminMail: string): Promise<InvitationStatusView> {
    const email = normalizeEmail(adminMail)
    const agency = await Agency.query()
      .where('admin_email', email)
      .whereExists((query) =>
        query
          .from('app_agencies')
          .whereColumn('app_agencies.agency_id', 'agencies.id')
          .where('app_agencies.app_id', appId)
      )
      .first()
    if (agency) return { state: 'registered', agency }
    const latest = await Invitation.forApp({ id: appId })
      .where('admin_email', email)
      .orderBy('id', 'desc')
      .first()
    if (!latest) return { state: 'unknown' }
    if (latest.state === 'pending' && latest.expiresAt > DateTime.now())
      return { state: 'pending', invitation: latest }
    return { state: 'expired' }
  }
}
