/*
 * The buyers' pages as a browser uses them, over real HTTP: a visitor (IP
 * through X-Forwarded-For, a browser User-Agent), the session cookie and the
 * form's CSRF token taken from the page, form-encoded posts.
 */
import type { ApiClient } from '@japa/api-client'

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'

let counter = 0

/** A documentation-range address no other test uses (rate limits are per IP). */
export function uniqueIp() {
  counter += 1
  const n = (process.pid * 1000 + counter) % 65_000
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`
}

export type Visitor = { ip: string; userAgent: string; cookie?: string }

export function visitor(userAgent = BROWSER_UA): Visitor {
  return { ip: uniqueIp(), userAgent }
}

/** `name=value` pairs of the response's Set-Cookie headers, merged over `previous`. */
export function cookiesOf(setCookie: string | string[] | undefined, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0], pair] as const)
  )
  for (const header of [setCookie ?? []].flat()) {
    const pair = header.split(';')[0]
    jar.set(pair.split('=')[0], pair)
  }
  return [...jar.values()].join('; ')
}

export function csrfOf(html: string): string {
  const match = /name='_csrf' value='([^']+)'/.exec(html)
  if (!match) throw new Error('no _csrf field in the page')
  return match[1]
}

export function get(client: ApiClient, path: string, who: Visitor) {
  const request = client
    .get(path)
    .header('User-Agent', who.userAgent)
    .header('X-Forwarded-For', who.ip)
    .redirects(0)
  return who.cookie ? request.header('Cookie', who.cookie) : request
}

/** Opens the page and keeps its session cookie; returns the page and its CSRF token. */
/** Opens the form page as `who` (a new visitor by default), keeping its cookies. */
export async function openForm(client: ApiClient, path: string, who: Visitor = visitor()) {
  const page = await get(client, path, who)
  who.cookie = cookiesOf(page.headers()['set-cookie'], who.cookie)
  return { page, csrf: csrfOf(page.text()), who }
}

export function postForm(
  client: ApiClient,
  path: string,
  who: Visitor,
  fields: Record<string, string>
) {
  const request = client
    .post(path)
    .header('User-Agent', who.userAgent)
    .header('X-Forwarded-For', who.ip)
    .form(fields)
    .redirects(0)
  return who.cookie ? request.header('Cookie', who.cookie) : request
}

/** A complete, valid form. */
export function formFields(overrides: Record<string, string> = {}): Record<string, string> {
  counter += 1
  return {
    Nombre: 'Lucía',
    Apellido: 'Gómez',
    Email: `lucia.${Date.now().toString(36)}${process.pid}${counter}@example.com`,
    Telefono: '+54 11 5555-1234',
    Comentario: 'Hola, ¿sigue disponible?',
    Interes: 'Compra',
    Sitio: '',
    ...overrides,
  }
}
