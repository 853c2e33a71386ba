/*
 * Queues of the agencies module (contributed by its provider, app/agencies/provider.ts).
 */
import type { JobDefinition } from '#core/jobs/types'

export const jobs: JobDefinition[] = [
  {
    // Invitation and reminder mails; queued in the transaction that stores the invitation.
    name: 'agencies.mail',
    queue: { retryLimit: 8, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 },
    handler: () => import('#agencies/jobs/invitation_mail_job'),
  },
  {
    // Expiry, the half-life reminder and any owed `invitaciones` app event.
    name: 'invitations.poll',
    queue: { retryLimit: 1 },
    schedule: '*/10 * * * *',
    handler: () => import('#agencies/jobs/poll_invitations_job'),
  },
]
