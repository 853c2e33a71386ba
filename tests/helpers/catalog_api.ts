/*
 * What the catalogue's HTTP specs share: a seeded catalogue and a caller per
 * group, GET with that caller's token, and the one shape of an item endpoint
 * (full form, reference, 304 on its ETag, 404 beyond any row, 400 when malformed).
 */
import type { ApiClient } from '@japa/api-client'
import { createCaller } from '#tests/helpers/apps'
import { seedCatalog } from '#tests/helpers/catalog'

export const REF = 'application/vnd.service.ref+json'

export const names = (body: any) => body._entries.map((entry: any) => entry.Nombre ?? entry.title)

/** The seeded catalogue and a fresh caller's token, for a group's setup. */
export async function catalogWorld(appName: string) {
  const seed = await seedCatalog()
  const { token } = await createCaller(appName)
  return { seed, token }
}

export function getAs(token: string, client: ApiClient, url: string, accept?: string) {
  const request = client.get(url).bearerToken(token)
  return accept ? request.header('Accept', accept) : request
}

/**
 * `GET {collection}/{id}` at `url`: the full form includes `full`, the
 * reference form is `ref` (or includes it when `partialRef`), the ETag answers
 * 304, the largest int4 in place of the id is a 404 and `malformed` a 400.
 */
export async function assertItem(
  { client, assert }: { client: ApiClient; assert: any },
  token: string,
  url: string,
  item: { full: object; ref: object; partialRef?: boolean; malformed: string }
) {
  const other = (id: string) => url.replace(/[^/]+$/, id)
  const full = await getAs(token, client, url)
  full.assertStatus(200)
  assert.include(full.body(), item.full)
  const ref = (await getAs(token, client, url, REF)).body()
  if (item.partialRef) assert.include(ref, item.ref)
  else assert.deepEqual(ref, item.ref)
  ;(await getAs(token, client, url).header('If-None-Match', full.header('etag')!)).assertStatus(304)
  ;(await getAs(token, client, other('2147483647'))).assertStatus(404)
  ;(await getAs(token, client, other(item.malformed))).assertStatus(400)
}
