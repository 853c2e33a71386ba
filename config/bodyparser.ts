import { defineConfig } from '@adonisjs/core/bodyparser'
import { JSON_BODY_METHODS } from '#core/http/middleware/json_body_middleware'

/**
 * Bodies over 1 MiB are refused (413). Empty strings are kept as sent: the
 * validators decide per field (Color must reject '').
 */
const bodyParserConfig = defineConfig({
  // The methods the 415 check and the OpenAPI document's 413/415 cover.
  allowedMethods: JSON_BODY_METHODS,
  json: {
    encoding: 'utf-8',
    limit: '1mb',
    strict: true,
    convertEmptyStringsToNull: false,
    types: [
      'application/json',
      'application/json-patch+json',
      'application/vnd.api+json',
      'application/csp-report',
      'text/json',
      'application/vnd.service.entry+json',
    ],
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
    types: [],
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
