import { defineConfig } from '@adonisjs/core/bodyparser'
import { JSON_BODY_METHODS } from '#core/http/middleware/json_body_middleware'
import { JSON_TYPES } from '#core/http/json_shape'

/**
 * Bodies over 1 MiB are refused (413). Empty strings are kept as sent: the
 * validators decide per field (Color must reject '').
 */
const bodyParserConfig = defineConfig({
  // The methods the 415 check and the OpenAPI document's 413/415 cover.
  allowedMethods: JSON_BODY_METHODS,
  // JSON bodies are read as text (raw) and parsed by the input gate, which
  // refuses nesting and objects past its limits before JSON.parse builds them
  // (app/core/http/json_shape.ts); the parser's own JSON step is off.
  json: {
    encoding: 'utf-8',
    limit: '1mb',
    types: [],
  },
  form: {
    encoding: 'utf-8',
    limit: '1mb',
    queryString: {},
    convertEmptyStringsToNull: false,
    types: ['application/x-www-form-urlencoded'],
  },
  raw: {
    encoding: 'utf-8',
    limit: '1mb',
    types: JSON_TYPES,
  },
  multipart: {
    autoProcess: false,
    processManually: [],
    convertEmptyStringsToNull: false,
    limit: '1mb',
    types: [],
  },
})

export default bodyParserConfig
