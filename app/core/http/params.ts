/*
 * Path parameters every module shares. `{adminmail}` is an e-mail in any
 * case (docs/design.md §4) under the one e-mail rule of `rules.ts`; a malformed one
 * is a 400 naming it on every endpoint.
 */
import vine from '@vinejs/vine'
import { EMAIL_MAX, emailAddress } from './rules.js'

/** The `{adminmail}` schema, for validators that check several parameters at once. */
export const adminMailSchema = () => vine.string().maxLength(EMAIL_MAX).use(emailAddress())

const adminMailValidator = vine.create({ adminmail: adminMailSchema() })

/** `{adminmail}` of the request, validated (400 `Errors.adminmail`). */
export async function adminMailParam(params: Record<string, unknown>): Promise<string> {
  const valid = await adminMailValidator.validate(params)
  return valid.adminmail
}
