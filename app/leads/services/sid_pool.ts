/*
 * Public ids of inquiries (docs/decisions/leads.md, Leads: "sid"): 10 characters of
 * `a-z2-9` without look-alikes (~50 bits). A singleton of the container
 * (bound in app/leads/provider.ts): its byte pool is its own private state.
 */
import { randomFillSync } from 'node:crypto'

/** Standard Webhooks message id of an inquiry's webhook: the same for every try and every resend. */
export const inquiryWebhookId = (sid: string) => `msg_${sid}`

const SID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'
const SID_LENGTH = 10

export default class SidPool {
  /** Random bytes drawn SID_LENGTH at a time: one `randomFillSync` per 100 sids, not a `randomBytes` per sid (docs/decisions/performance.md, Performance). */
  #bytes = Buffer.allocUnsafe(SID_LENGTH * 100)
  #at = this.#bytes.length

  next() {
    if (this.#at + SID_LENGTH > this.#bytes.length) {
      randomFillSync(this.#bytes)
      this.#at = 0
    }
    let sid = ''
    // 32 letters: a byte modulo 32 is unbiased.
    for (let i = this.#at; i < this.#at + SID_LENGTH; i++)
      sid += SID_ALPHABET[this.#bytes[i] % SID_ALPHABET.length]
    this.#at += SID_LENGTH
    return sid
  }
}
