import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HttpContext } from '@adonisjs/core/http'
import { openApiDocument } from '#core/openapi/document'
import { Problem } from '#core/http/problem'

/** swagger-ui-dist ships the reference's assets; served locally, no CDN. */
const ASSETS_DIR = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')))

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'docs.js': 'text/javascript; charset=utf-8',
}

const PAGE = `<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API de publicaciones v3 — referencia</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <noscript>La referencia navegable necesita JavaScript; el documento está en <a href="/v3/openapi.json">/v3/openapi.json</a>.</noscript>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/docs.js"></script>
</body>
</html>`

const INIT = `window.ui = SwaggerUIBundle({ url: '/v3/openapi.json', dom_id: '#swagger-ui', deepLinking: true })`

export default class DocsController {
  async openapi({ response }: HttpContext) {
    response.header('Cache-Control', 'no-cache')
    return response.json(await openApiDocument())
  }

  page({ response }: HttpContext) {
    response.header('Content-Type', 'text/html; charset=utf-8')
    return response.send(PAGE)
  }

  async asset({ params, response }: HttpContext) {
    const type = ASSETS[params.file]
    if (!type) throw Problem.notFound()
    const content = params.file === 'docs.js' ? INIT : await readFile(join(ASSETS_DIR, params.file))
    response.header('Content-Type', type)
    response.header('Cache-Control', 'public, max-age=86400')
    return response.send(content)
  }
}
