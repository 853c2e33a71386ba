import { test } from '@japa/runner'
import { parseTemplate } from 'url-template'
import { createCaller } from '#tests/helpers/apps'
import { seedCatalog } from '#tests/helpers/catalog'

/** Entry points other modules serve (docs/spec.md §2.15: agencies, app notifications). */
/** Links of /v3 that are not the catalogue's (the app's own resources, agencies, inquiries). */
const OTHERS = [
  '/v3/agencias',
  '/v3/appnotificaciones',
  '/v3/aplicacion',
  '/v3/credenciales',
  '/v3/eventos',
  '/v3/consultas',
]

function hrefs(value: unknown, found: { href: string; templated: boolean }[] = []) {
  if (Array.isArray(value)) value.forEach((item) => hrefs(item, found))
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>
    if (typeof object.href === 'string')
      found.push({ href: object.href, templated: object.templated === true })
    Object.values(object).forEach((item) => hrefs(item, found))
  }
  return found
}

test.group('Catalogue links', () => {
  test('every catalogue link reachable from GET /v3 resolves, in both representations', async ({
    client,
    assert,
  }) => {
    const seed = await seedCatalog()
    const { token } = await createCaller('catalog crawler')
    const entry = (await client.get('/v3').bearerToken(token)).body()

    const values: Record<string, unknown> = {
      region: 'AR-B',
      q: 'o',
      soloMercadoNuevos: true,
      marca: seed.brands.toyota,
      modelo: seed.models['toyota/corolla'],
      year: 2022,
    }
    const queue: string[] = []
    for (const { href, templated } of hrefs(entry)) {
      if (
        OTHERS.some((other) => href.startsWith(other)) ||
        href.startsWith('/v3/openapi.json') ||
        href === '/v3'
      )
        continue
      queue.push(templated ? parseTemplate(href).expand(values as any) : href)
      if (templated)
        queue.push(parseTemplate(href).expand({ ...values, q: undefined, year: undefined } as any))
    }
    assert.includeMembers(
      queue.map((url) => url.split('?')[0]),
      [
        '/v3/regiones',
        '/v3/ciudades',
        '/v3/monedas',
        '/v3/propulsiones',
        '/v3/transmisiones',
        '/v3/carrocerias',
        '/v3/marcas',
        '/v3/modelos',
        '/v3/versiones',
      ]
    )

    const seen = new Set<string>()
    while (queue.length > 0 && seen.size < 400) {
      const url = queue.shift()!
      if (seen.has(url)) continue
      seen.add(url)
      for (const accept of ['application/json', 'application/vnd.service.ref+json']) {
        const response = await client.get(url).bearerToken(token).header('Accept', accept)
        assert.equal(response.status(), 200, `${url} (${accept})`)
        for (const { href, templated } of hrefs(response.body())) {
          if (!templated && !seen.has(href)) queue.push(href)
        }
      }
    }
    assert.isBelow(seen.size, 400, 'the crawl finished')
    assert.isAbove(seen.size, 40)
  })
})
