/*
 * Path parameters every module shares. `{adminmail}` is an e-mail in any
 * case (DESIGN.md §4); a malformed one is a 400 naming it on every endpoint.
 */
import vine from '@vinejs/vine'

/** The `{adminmail}` schema, for validators that check several parameters at once. */
export const adminMailSchema = () => vine.string().maxLength(254).regex(/^[^\s@]+@[^\s@]+$/)

const adminMailValidator = vine.create({ adminmail: adminMailSchema() })

/** `{adminmail}` of the request, validated (400 `Errors.adminmail`). */
export async function adminMailParam(params: Record<string, unknown>): Promise<string> {
  return (await adminMailValidator.validate(params)).adminmail
}
