/*
 * The benchmark's dealer, set up the way a dealer app does it, through the
 * API: invite an agency, read the invitation mail (.eml under DATA_DIR/mail),
 * register, publish a listing.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const ADMIN_MAIL = 'bench@agencia.test'
export const EXTERNAL_ID = 'BENCH-1'

async function call(ctx, serviceUrl, method, path, body) {
  const response = await fetch(serviceUrl + path, {
    method,
    headers: {
      'authorization': `Bearer ${ctx.token}`,
      'content-type': 'application/json',
      'accept': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path} → ${response.status}: ${text}`)
  return { response, body: text ? JSON.parse(text) : null }
}

async function invitationLink(mailDir, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    for (const file of safeList(mailDir)) {
      const match = /\/registro\/([A-Za-z0-9_.~-]+)/.exec(
        quotedPrintable(readFileSync(join(mailDir, file), 'utf8'))
      )
      if (match) return match[1]
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the invitation mail did not arrive')
}

/** Mail bodies are quoted-printable: soft line breaks and =XX escapes. */
const quotedPrintable = (text) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))

function safeList(dir) {
  try {
    return readdirSync(dir).filter((file) => file.endsWith('.eml'))
  } catch {
    return []
  }
}

export const listingBody = (overrides = {}) => ({
  ExternalId: EXTERNAL_ID,
  Marca: 'Toyota',
  Modelo: 'Corolla',
  Version: 'XEI 2.0 CVT',
  Transmision: 'CVT',
  Propulsion: 'Nafta',
  VersionYear: new Date().getFullYear(),
  Kilometraje: 0,
  Color: 'Gris plata',
  Descripcion: 'Unidad 0 km, entrega inmediata.',
  Precio: { Moneda: 'ARS', Importe: 38500000 },
  Locacion: { Region: 'Córdoba', Ciudad: 'Córdoba', Direccion: 'Av. Colón 1000' },
  ...overrides,
})

/** Agency registered through the invitation flow, and one active listing. */
export async function setUpDealer(ctx, serviceUrl, dataDir) {
  await call(ctx, serviceUrl, 'POST', '/v3/agencias', {
    AdminMail: ADMIN_MAIL,
    NombreComercial: 'Bench Autos',
    Region: 'Córdoba',
    Ciudad: 'Córdoba',
    Direccion: 'Av. Colón 1000',
    Telefono: '+5493511234567',
    AdminNombre: 'Ana',
    AdminApellido: 'Banco',
  })
  const token = await invitationLink(join(dataDir, 'mail'))
  await call(ctx, serviceUrl, 'POST', `/registro/${token}`, {
    AdminNombre: 'Ana',
    AdminApellido: 'Banco',
    Password: 'una-clave-larga-123',
  })
  const created = await call(
    ctx,
    serviceUrl,
    'POST',
    `/v3/publicaciones/${ADMIN_MAIL}`,
    listingBody()
  )
  ctx.listingPath = `/v3/publicaciones/${ADMIN_MAIL}/${EXTERNAL_ID}`
  ctx.listingEtag = created.response.headers.get('etag')
  ctx.adminMail = ADMIN_MAIL
  return created.body
}

export { call }
