/*
 * Shared setup of the listings tests: an app with its token and an agency of
 * that app, plus a body builder for creations.
 */
import { createCaller } from '#tests/helpers/apps'
import { createAgency, type AgencyOptions } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import { listingBody, uniqueExternalId } from '#tests/helpers/listings'

export { listingBody, uniqueExternalId }

export async function setup(options: AgencyOptions = {}) {
  await seedCatalog()
  const { app, token } = await createCaller('Listings test app')
  const fixture = await createAgency(app, options)
  const adminMail = fixture.agency.adminMail
  return {
    app,
    token,
    fixture,
    adminMail,
    base: `/v3/publicaciones/${adminMail}`,
    href: (externalId: string) => `/v3/publicaciones/${adminMail}/${externalId}`,
  }
}

export const thisYear = () => new Date().getFullYear()

/** Asserts that a problem document's `Errors` has `key` (keys may hold dots: `Precio.Moneda`). */
export function assertErrorKey(
  assert: { include: (haystack: any, needle: any, message?: string) => void },
  body: any,
  key: string
) {
  assert.include(Object.keys(body?.Errors ?? {}), key, JSON.stringify(body?.Errors ?? body))
}
