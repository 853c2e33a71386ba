/*
 * HTML responses of the buyers' pages: Edge views of this module, always
 * `text/html` in UTF-8, never cached by shared caches (they carry a
 * per-visitor CSRF token).
 */
import type { HttpContext } from '@adonisjs/core/http'

export async function renderHtml(
  ctx: HttpContext,
  view: string,
  data: Record<string, unknown>,
  status = 200
) {
  const html = await ctx.view.render(`buyers::${view}`, data)
  ctx.response.status(status)
  ctx.response.header('Content-Type', 'text/html; charset=utf-8')
  if (!ctx.response.getHeader('Cache-Control'))
    ctx.response.header('Cache-Control', 'private, no-store')
  return ctx.response.send(html)
}

/** A friendly error page (404, 410, 403, 429, 500) in the site's layout. */
export function renderError(ctx: HttpContext, status: number, data: Record<string, unknown> = {}) {
  const copy = ERRORS[status] ?? (status >= 500 ? ERRORS[500] : ERRORS[400])
  return renderHtml(ctx, 'error', { status, ...copy, ...data }, status)
}

const ERRORS: Record<number, { heading: string; message: string }> = {
  400: {
    heading: 'No pudimos procesar el pedido',
    message: 'Revisá los datos enviados y volvé a intentarlo desde la página de la publicación.',
  },
  403: {
    heading: 'El formulario venció',
    message:
      'Por seguridad, el formulario sólo puede enviarse desde la página de la publicación. Volvé a abrirla y enviá tu consulta otra vez.',
  },
  404: {
    heading: 'No encontramos esta página',
    message:
      'La dirección no corresponde a ninguna publicación. Revisá el enlace o buscá otro vehículo.',
  },
  410: {
    heading: 'Esta publicación ya no está disponible',
    message:
      'La agencia pausó o finalizó esta publicación, por lo que no recibe consultas. Puede que el vehículo ya se haya vendido.',
  },
  429: {
    heading: 'Recibimos demasiadas consultas desde tu conexión',
    message:
      'Para evitar envíos automáticos limitamos la cantidad de consultas. Esperá unos minutos y volvé a intentarlo.',
  },
  503: {
    heading: 'El sitio no está disponible en este momento',
    message: 'Estamos teniendo un problema pasajero. Volvé a intentarlo en unos segundos.',
  },
  500: {
    heading: 'Algo salió mal',
    message: 'No pudimos completar la operación. Intentá de nuevo en unos minutos.',
  },
}
