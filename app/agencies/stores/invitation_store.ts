/*
 * Invitations to register an agency. Lucid for plain CRUD, the query builder
 * for the poll's conditional updates (each one a guard, so overlapping polls
 * are harmless).
 */
import type { DateTime } from 'luxon'
import Invitation from '#agencies/models/invitation'
import type { Tx } from '#core/database/unit_of_work'

/** The columns an invitation's writers set. */
export type InvitationChanges = Partial<
  Pick<
    Invitation,
    | 'appId'
    | 'adminEmail'
    | 'tradeName'
    | 'regionId'
    | 'cityId'
    | 'address'
    | 'phone'
    | 'phoneIsWhatsapp'
    | 'adminFirstName'
    | 'adminLastName'
    | 'tokenNonce'
    | 'tokenHash'
    | 'state'
    | 'mailSequence'
    | 'mailedSequence'
    | 'sentAt'
    | 'expiresAt'
    | 'remindedAt'
    | 'lastMailedAt'
    | 'acceptedAt'
    | 'agencyId'
    | 'eventQueuedAt'
  >
>

/** Rows changed by a query-builder update (knex answers a count, Lucid may wrap it in an array). */
function affected(result: unknown): number {
  return Number(Array.isArray(result) ? (result[0] ?? 0) : result)
}

export default class InvitationStore {
  async find(id: number, tx?: Tx): Promise<Invitation | null> {
    return Invitation.find(id, { client: tx })
  }

  async byTokenHash(tokenHash: string, tx?: Tx): Promise<Invitation | null> {
    return Invitation.findBy('token_hash', tokenHash, { client: tx })
  }

  /** Locks the invitation's row in `tx`; `where` narrows to the rows a step may still take. */
  async lock(
    id: number,
    tx: Tx,
    where: { state?: 'pending'; notReminded?: boolean; eventOwed?: boolean } = {}
  ): Promise<Invitation | null> {
    const query = Invitation.query({ client: tx }).where('id', id).forUpdate()
    if (where.state) query.where('state', where.state)
    if (where.notReminded) query.whereNull('reminded_at')
    if (where.eventOwed) query.whereNull('event_queued_at')
    return query.first()
  }

  /** Locks every pending invitation of the e-mail in id order (registrations queue, not deadlock). */
  async lockPendingOf(adminEmail: string, tx: Tx): Promise<void> {
    await Invitation.query({ client: tx })
      .where('admin_email', adminEmail)
      .where('state', 'pending')
      .orderBy('id')
      .forUpdate()
  }

  /** The app's pending invitation of the e-mail, locked in `tx`. */
  async pendingForUpdate(appId: number, adminEmail: string, tx: Tx): Promise<Invitation | null> {
    return Invitation.query({ client: tx })
      .where('app_id', appId)
      .where('admin_email', adminEmail)
      .where('state', 'pending')
      .forUpdate()
      .first()
  }

  /** The app's latest invitation of the e-mail. */
  async latestForApp(appId: number, adminEmail: string): Promise<Invitation | null> {
    return Invitation.forApp({ id: appId })
      .where('admin_email', adminEmail)
      .orderBy('id', 'desc')
      .first()
  }

  async create(row: InvitationChanges, tx: Tx): Promise<Invitation> {
    return Invitation.create(row, { client: tx })
  }

  async update(invitation: Invitation, changes: InvitationChanges, tx?: Tx): Promise<Invitation> {
    if (tx) invitation.useTransaction(tx)
    await invitation.merge(changes).save()
    return invitation
  }

  /** Expires the e-mail's other pending invitations (another one was accepted). */
  async expireOtherPending(adminEmail: string, exceptId: number, now: DateTime, tx: Tx) {
    await Invitation.query({ client: tx })
      .where('admin_email', adminEmail)
      .where('state', 'pending')
      .whereNot('id', exceptId)
      .update({ state: 'expired', updatedAt: now.toSQL() })
  }

  /** Expires every pending invitation past its validity; how many. */
  async expireOverdue(now: DateTime, tx?: Tx): Promise<number> {
    const result = await Invitation.query({ client: tx })
      .where('state', 'pending')
      .where('expires_at', '<=', now.toSQL()!)
      .update({ state: 'expired', updatedAt: now.toSQL() })
    return affected(result)
  }

  /** Ids of pending invitations past half their validity and not yet reminded. */
  async dueForReminder(now: DateTime, tx?: Tx): Promise<number[]> {
    const rows = await Invitation.query({ client: tx })
      .where('state', 'pending')
      .whereNull('reminded_at')
      .where('expires_at', '>', now.toSQL()!)
      .whereRaw('sent_at + (expires_at - sent_at) / 2 <= ?', [now.toSQL()!])
      .select('id')
    return rows.map((row) => row.id)
  }

  /** Ids of accepted invitations whose app event is still owed. */
  async eventsOwed(tx?: Tx): Promise<number[]> {
    const rows = await Invitation.query({ client: tx })
      .where('state', 'accepted')
      .whereNull('event_queued_at')
      .select('id')
    return rows.map((row) => row.id)
  }

  /** Records that mail `sequence` went out (never backwards: a redelivered job may be late). */
  async markMailed(id: number, sequence: number, tx?: Tx): Promise<void> {
    await Invitation.query({ client: tx })
      .where('id', id)
      .where('mailed_sequence', '<', sequence)
      .update({ mailedSequence: sequence })
  }
}
