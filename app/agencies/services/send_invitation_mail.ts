/*
 * Sends an invitation (or its reminder) to the future administrator. Runs from
 * the `agencies.mail` job: skips invitations no longer pending and mails
 * already sent, so a redelivered job does not mail twice. The mail names the
 * inviting app (its name as the app has it now).
 */
import { inject } from '@adonisjs/core'
import mail from '@adonisjs/mail/services/main'
import InvitationStore from '#agencies/stores/invitation_store'
import ReadApplication from '#apps/services/read_application'
import { readableTime } from '#core/wire_time'
import { renderView } from '#agencies/views'
import { registrationUrl } from './invitation_tokens.js'
import type { InvitationMailJob } from './invite_agency.js'

@inject()
export default class SendInvitationMail {
  constructor(
    private invitations: InvitationStore,
    private apps: ReadApplication
  ) {}

  async execute({ invitationId, sequence, kind }: InvitationMailJob) {
    const invitation = await this.invitations.find(invitationId)
    if (!invitation || invitation.state !== 'pending' || invitation.mailedSequence >= sequence)
      return
    const reminder = kind === 'reminder'
    // Named, so the administrator can tell an invitation from someone posing as one.
    const inviter = await this.apps.execute({ id: invitation.appId })
    const subject = reminder
      ? `Recordatorio: complete el registro de ${invitation.tradeName}`
      : `Invitación para registrar ${invitation.tradeName}`
    const data = {
      subject,
      reminder,
      tradeName: invitation.tradeName,
      appName: inviter.ok ? inviter.value.name : null,
      email: invitation.adminEmail,
      link: registrationUrl(invitation.tokenNonce),
      expires: readableTime(invitation.expiresAt),
    }
    const [html, text] = await Promise.all([
      renderView('mail/invitation', data),
      renderView('mail/invitation_text', data),
    ])
    await mail.send((message) => {
      message.to(invitation.adminEmail).subject(subject).html(html).text(text)
    })
    await this.invitations.markMailed(invitation.id, sequence)
  }
}
