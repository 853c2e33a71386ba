/*
 * POST /v3/credenciales (docs/design.md §18, §25): the calling app gets a new
 * token, and the token it called with expires after the overlap it chose
 * (Stripe's roll key) — never later than it already would. The new token
 * never outlives the calling one's own expiry: a token made to last 10 s
 * cannot mint one that lasts for ever. Both in one unit of work: no new token
 * without the old one's new expiry.
 *
 * Locks, in this order (as RevokeTokens takes them: no deadlock): the app's
 * row, so the live-token count holds until commit and a revocation of all the
 * app's tokens runs wholly before or wholly after; then the calling token's
 * row, re-read there, so a revocation of it that commits first refuses the
 * rotation instead of leaving a fresh token behind.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import { DateTime } from 'luxon'
import AppStore from '#apps/stores/app_store'
import TokenStore, { type TokenRow } from '#apps/stores/token_store'
import { CredentialMemory } from '#apps/services/credential_memory'
import { insertToken, MAX_LIVE_TOKENS, type Issued } from '#apps/services/issue_token'
import { isLive } from '#apps/services/token_reader'
import { UnitOfWork } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'

export const DEFAULT_OVERLAP_SECONDS = 86_400
export const MAX_OVERLAP_SECONDS = 604_800

export type RotateFailure = 'credential_invalid' | 'token_limit'
export type Rotated = Issued & { previous: TokenRow }

@inject()
export default class RotateToken {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore,
    private unitOfWork: UnitOfWork,
    private memory: CredentialMemory,
    private logger: Logger
  ) {}

  /** `tokenId`: the calling token; refused when it was revoked, expired or its app disabled meanwhile. */
  async execute(
    caller: { appId: number; tokenId: number },
    options: { name?: string | null; overlapSeconds?: number },
    at?: DateTime
  ): Promise<Result<Rotated, RotateFailure>> {
    const overlap = options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS
    const rotated = await this.unitOfWork.run(
      async (tx): Promise<Result<Rotated, RotateFailure>> => {
        const app = await this.apps.lock(caller.appId, tx)
        const current = app && !app.disabledAt ? await this.tokens.lock(caller.tokenId, tx) : null
        // The clock is read once the locks are held: a rotation that waited for them sees the
        // token the rotation ahead of it ended "now" as ended, so the count below is the committed one.
        const now = at ?? DateTime.now()
        if (!current || current.appId !== caller.appId || !isLive(current, now)) {
          return fail('credential_invalid')
        }
        const overlapEnd = now.plus({ seconds: overlap })
        const previousEnd =
          current.expiresAt && current.expiresAt < overlapEnd ? current.expiresAt : overlapEnd
        // Live once this commits: the others, the calling one if its overlap has not ended, the new one.
        const live = await this.tokens.countLive(caller.appId, now, tx)
        if (live - (previousEnd > now ? 0 : 1) + 1 > MAX_LIVE_TOKENS) return fail('token_limit')
        const issued = await insertToken(
          this.tokens,
          caller.appId,
          { name: options.name ?? null, expiresAt: current.expiresAt },
          tx
        )
        const previous = await this.tokens.expireBy(caller.tokenId, overlapEnd, tx)
        return ok({ ...issued, previous: previous! })
      }
    )
    if (!rotated.ok) return rotated
    // This process must not keep accepting the old token past its new expiry.
    this.memory.forget()
    this.logger.info(
      {
        appId: caller.appId,
        tokenId: rotated.value.row.id,
        tokenExpiresAt: rotated.value.row.expiresAt?.toISO() ?? null,
        previousTokenId: caller.tokenId,
        previousExpiresAt: rotated.value.previous.expiresAt?.toISO(),
      },
      'app token rotated'
    )
    return rotated
  }
}
