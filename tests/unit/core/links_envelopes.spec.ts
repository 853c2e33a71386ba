import { test } from '@japa/runner'
import fc from 'fast-check'
import { expand, link, path, segment, templated, group } from '#core/http/links'
import { listEnvelope, pagedEnvelope } from '#core/http/envelopes'
import { etagOf } from '#core/http/etag'
import { canonical, fold, TRANSMISSIONS, PROPULSIONS } from '#core/value_sets'

test.group('Links', () => {
  test('relative hrefs, methods, templates', ({ assert }) => {
    assert.deepEqual(link('/v3/x', { method: 'PUT' }), { href: '/v3/x', method: 'PUT' })
    assert.deepEqual(templated('/v3/marcas{?q}'), { href: '/v3/marcas{?q}', templated: true })
    assert.deepEqual(group({ self: link('/v3') }), { _links: { self: { href: '/v3' } } })
  })

  test('path segments are encoded, @ stays readable', ({ assert }) => {
    assert.equal(
      path('publicaciones', 'Ana@Example.com', 'a b/c'),
      '/v3/publicaciones/Ana@Example.com/a%20b%2Fc'
    )
  })

  test('a segment with nothing to encode is kept; any other is encoded as encodeURIComponent does', ({
    assert,
  }) => {
    assert.equal(segment('0a1b2c3d4e5f6a7b'), '0a1b2c3d4e5f6a7b')
    assert.equal(segment('ana.gomez_1~x-y@example.com'), 'ana.gomez_1~x-y@example.com')
    assert.equal(segment("o'neil+1@example.com"), "o'neil%2B1@example.com")
    assert.equal(segment('año'), 'a%C3%B1o')
    assert.equal(segment(42), '42')
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' })), (value) => {
        assert.equal(segment(value), encodeURIComponent(value).replaceAll('%40', '@'))
      }),
      { seed: 20261124, numRuns: 500 }
    )
  })

  test('RFC 6570 expansion drops empty values and encodes the rest', ({ assert }) => {
    assert.equal(
      expand('/v3/marcas{?q,soloMercadoNuevos}', {
        q: 'peugeot 208',
        soloMercadoNuevos: undefined,
      }),
      '/v3/marcas?q=peugeot%20208'
    )
    assert.equal(expand('/v3/marcas{?q}', { q: '' }), '/v3/marcas')
    assert.equal(
      expand('/v3/consultas/{m}{?pagina}', { m: 'a@b.com', pagina: 2 }),
      '/v3/consultas/a%40b.com?pagina=2'
    )
  })
})

test.group('Envelopes', () => {
  const template = '/v3/consultas/x{?desde,pagina}'

  test('list envelope', ({ assert }) => {
    assert.deepEqual(listEnvelope({ self: link('/v3/a') }, [1, 2]), {
      _links: { self: { href: '/v3/a' } },
      _entries: [1, 2],
    })
  })

  test('paged envelope: first page links next, not prev', ({ assert }) => {
    const page = pagedEnvelope(
      template,
      { desde: '2026-11-01' },
      { page: 1, perPage: 100, total: 250 },
      []
    )
    assert.equal(page.Pagina, 1)
    assert.equal(page.Total, 250)
    assert.equal(page.PerPagina, 100)
    assert.equal(page._links.self.href, '/v3/consultas/x?desde=2026-11-01&pagina=1')
    assert.equal(page._links.next.href, '/v3/consultas/x?desde=2026-11-01&pagina=2')
    assert.notProperty(page._links, 'prev')
    assert.deepEqual(page._links.page, { href: template, templated: true })
  })

  test('paged envelope: last page links prev, not next', ({ assert }) => {
    const page = pagedEnvelope(template, {}, { page: 3, perPage: 100, total: 250 }, [])
    assert.equal(page._links.prev.href, '/v3/consultas/x?pagina=2')
    assert.notProperty(page._links, 'next')
  })

  test('paged envelope: page 99 never links to page 100', ({ assert }) => {
    assert.property(
      pagedEnvelope(template, {}, { page: 98, perPage: 100, total: 100_000 }, [])._links,
      'next'
    )
    assert.notProperty(
      pagedEnvelope(template, {}, { page: 99, perPage: 100, total: 100_000 }, [])._links,
      'next'
    )
  })

  test('period fields come first when given', ({ assert }) => {
    const page = pagedEnvelope(template, {}, { page: 1, perPage: 100, total: 0 }, [], {
      Desde: 'a',
      Hasta: 'b',
    })
    assert.deepEqual(Object.keys(page).slice(0, 2), ['Desde', 'Hasta'])
  })
})

test.group('ETags and value sets', () => {
  test('strong ETags are quoted and content-derived', ({ assert }) => {
    assert.match(etagOf('a'), /^"[A-Za-z0-9_-]+"$/)
    assert.equal(etagOf('a'), etagOf('a'))
    assert.notEqual(etagOf('a'), etagOf('b'))
  })

  test('closed values match case- and accent-insensitively and answer canonically', ({
    assert,
  }) => {
    assert.equal(canonical(TRANSMISSIONS, 'automatica'), 'Automática')
    assert.equal(canonical(PROPULSIONS, ' DIESEL '), 'Diésel')
    assert.equal(canonical(PROPULSIONS, 'híbrido ENCHUFABLE'), 'Híbrido enchufable')
    assert.isUndefined(canonical(PROPULSIONS, 'vapor'))
    assert.equal(fold('Córdoba'), 'cordoba')
  })
})
