import { defineConfig } from '@adonisjs/core/bodyparser'

/**
 * Bodies over 1 MiB are refused (413). Empty strings are kept as sent: the
 * validators decide per field (Color must reject '').
 */
const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
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
