/*
 * What the invitation URI (`/v3/agencias/{adminmail}`) shows an app: its
 * agency once registered, its pending invitation, or that it expired. Another
 * app's agency or invitation is never visible.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import type Invitation from '#agencies/models/invitation'
import type Agency from '#agencies/models/agency'
import AgencyStore from '#agencies/stores/agency_store'
import InvitationStore from '#agencies/stores/invitation_store'
import { normalizeEmail } from './emails.js'

export type InvitationStatusView =
  | { state: 'registered'; agency: Agency }
  | { state: 'pending'; invitation: Invitation }
  | { state: 'expired' }
  | { state: 'unknown' }

@inject()
export default class InvitationStatus {
  constructor(
    private agencies: AgencyStore,
    private invitations: InvitationStore
  ) {}

  async execute(appId: number, adminMail: string): Promise<InvitationStatusView> {
    const email = normalizeEmail(adminMail)
    const agency = await this.agencies.registeredForApp(appId, email)
    if (agency) return { state: 'registered', agency }
    const latest = await this.invitations.latestForApp(appId, email)
    if (!latest) return { state: 'unknown' }
    if (latest.state === 'pending' && latest.expiresAt > DateTime.now())
      return { state: 'pending', invitation: latest }
    return { state: 'expired' }
  }
}
