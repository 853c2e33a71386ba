/*
 * `GET /metrics` in the OpenAPI document (docs/design.md §14). It is not an
 * app endpoint: its bearer is the operator's METRICS_TOKEN, not an app token.
 */
import { open, type OpenApiFragment } from '#core/openapi/helpers'

export const openapi: OpenApiFragment = {
  operations: {
    'GET /metrics': {
      operationId: 'getMetrics',
      tag: 'Salud',
      summary: 'Métricas para Prometheus (operadores)',
      description:
        'Formato de texto de Prometheus. En el puerto principal solo con `Authorization: Bearer` ' +
        'y el token METRICS_TOKEN del servicio (404 si no está configurado); sin credenciales en ' +
        'METRICS_PORT.',
      security: open,
      responses: {
        '200': {
          description: 'Métricas (formato de texto 0.0.4 de Prometheus)',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
      problems: [401, 404],
    },
  },
}
