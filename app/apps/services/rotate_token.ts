/*
 * POST /v3/credenciales (docs/design.md §18): the calling app gets a new
 * token, and the token it called with expires after the overlap it chose
 * (Stripe's roll key) — never later than it already would. Both in one unit
 * of work: no new token without the old one's new expiry.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import { DateTime } from 'luxon'
import TokenStore, { type TokenRow } from '#apps/stores/token_store'
import { CredentialMemory } from '#apps/services/credential_memory'
import { insertToken, type Issued } from '#apps/services/issue_token'
import { UnitOfWork } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'

export const DEFAULT_OVERLAP_SECONDS = 86_400
export const MAX_OVERLAP_SECONDS = 604_800

export type RotateFailure = 'credential_invalid'
export type Rotated = Issued & { previous: TokenRow }

@inject()
export default class RotateToken {
  constructor(
    private tokens: TokenStore,
    private unitOfWork: UnitOfWork,
    private memory: CredentialMemory,
    private logger: Logger
  ) {}

  /** `tokenId`: the calling token; refused when it was revoked, expired or its app disabled meanwhile. */
  async execute(
    caller: { appId: number; tokenId: number },
    options: { name?: string | null; overlapSeconds?: number },
    now: DateTime = DateTime.now()
  ): Promise<Result<Rotated, RotateFailure>> {
    const overlap = options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS
    const rotated = await this.unitOfWork.run(async (tx) => {
      const current = await this.tokens.credential(caller.tokenId, tx)
      const usable =
        current &&
        current.appId === caller.appId &&
        !current.revokedAt &&
        !current.appDisabledAt &&
        !(current.expiresAt && current.expiresAt <= now)
      if (!usable) return null
      const issued = await insertToken(this.tokens, caller.appId, { name: options.name }, now, tx)
      const previous = await this.tokens.expireBy(
        caller.tokenId,
        now.plus({ seconds: overlap }),
        tx
      )
      return { ...issued, previous: previous! }
    })
    if (!rotated) return fail('credential_invalid')
    // This process must not keep accepting the old token past its new expiry.
    this.memory.forget()
    this.logger.info(
      {
        appId: caller.appId,
        tokenId: rotated.row.id,
        previousTokenId: caller.tokenId,
        previousExpiresAt: rotated.previous.expiresAt?.toISO(),
      },
      'app token rotated'
    )
    return ok(rotated)
  }
}
