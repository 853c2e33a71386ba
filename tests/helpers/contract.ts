/*
 * The response contract: every response the functional suite receives (Japa's api client and
 * `raw()`) is checked against the served `/v3/openapi.json` with ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1): the operation is documented, the status declared, the declared headers
 * present and well-formed, the body valid for its media type. Drift between the code and the
 * document fails the test that made the request (docs/spec.md §1, issue 12).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { appendFileSync } from 'node:fs'
import { baseUrl } from '#tests/helpers/http'

/** ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM loader. */
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => void

type Json = Record<string, any>

/** A response as the checker sees it, whichever client received it. */
export type ObservedResponse = {
  method: string
  /** Path without the query string, as sent (percent-encoded). */
  path: string
  status: number
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>
  /** The body bytes; empty for HEAD, 204, 304. */
  body: Buffer
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** Responses that are not the API's and so are not in the document. */
const SKIPPED: { pattern: RegExp; reason: string }[] = [
  // Swagger UI's own files, served verbatim from swagger-ui-dist.
  { pattern: /^\/docs\/assets\//, reason: 'vendored Swagger UI assets' },
]

/** A JSON pointer into the document, encoded for a `$ref`. */
function pointer(parts: (string | number)[]) {
  return (
    '#/' +
    parts
      .map((part) => encodeURIComponent(String(part).replace(/~/g, '~0').replace(/\//g, '~1')))
      .join('/')
  )
}

function isJsonType(mediaType: string) {
  return /^application\/(.+\+)?json$/.test(mediaType) || mediaType === 'text/json'
}

function isTextType(mediaType: string) {
  return mediaType.startsWith('text/') || /[/+]xml$/.test(mediaType)
}

function formatErrors(errors: ErrorObject[] | null | undefined) {
  return (errors ?? [])
    .slice(0, 8)
    .map((error) =>
      `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`.trim()
    )
    .join('; ')
}

/**
 * Checks responses against one OpenAPI 3.1 document. Pure: no I/O, so the unit suite can prove
 * it fails on a wrong status, header or body.
 */
export class ContractChecker {
  #ajv: Ajv2020
  #validators = new Map<string, ValidateFunction>()
  #operations: { path: string; regex: RegExp; literals: number }[]

  constructor(private document: Json) {
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
    addFormats(this.#ajv)
    // OpenAPI's own formats carry no rule beyond the type.
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) {
      this.#ajv.addFormat(format, true)
    }
    this.#ajv.addSchema(document, 'openapi.json')
    this.#operations = Object.keys(document.paths ?? {}).map((path) => ({
      path,
      regex: new RegExp(
        '^' +
          path
            .split(/(\{[^}]+\})/)
            .map((part) =>
              part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
            )
            .join('') +
          '/?$'
      ),
      literals: path.split('/').filter((segment) => segment && !segment.includes('{')).length,
    }))
  }

  /** Follows a local `$ref` (components/responses, components/headers …) to its target. */
  #deref(
    value: Json | undefined,
    at: (string | number)[]
  ): [Json | undefined, (string | number)[]] {
    let current = value
    let location = at
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
      const parts = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
      location = parts
      current = parts.reduce<any>((node, part) => node?.[part], this.document)
    }
    return [current, location]
  }

  #validator(at: (string | number)[]) {
    const key = pointer(at)
    let validate = this.#validators.get(key)
    if (!validate) {
      validate = this.#ajv.compile({ $ref: 'openapi.json' + key })
      this.#validators.set(key, validate)
    }
    return validate
  }

  #validate(at: (string | number)[], value: unknown) {
    const validate = this.#validator(at)
    return validate(value) ? null : formatErrors(validate.errors)
  }

  /** The documented path template the request matched (the most literal one wins). */
  template(path: string, method: string) {
    const candidates = this.#operations
      .filter((operation) => operation.regex.test(path))
      .sort((a, b) => b.literals - a.literals)
    const withMethod = candidates.find((operation) =>
      Boolean(this.document.paths[operation.path]?.[method])
    )
    return { template: (withMethod ?? candidates[0])?.path, documented: Boolean(withMethod) }
  }

  /** Why the response does not match the document; empty when it does (or is skipped). */
  errors(observed: ObservedResponse): string[] {
    const path = observed.path.split('?')[0]
    if (SKIPPED.some((skip) => skip.pattern.test(path))) return []
    // HEAD answers like GET without a body (the router derives it; the document lists GET).
    let method = observed.method.toLowerCase()
    if (method === 'head' && !this.#hasOperation(path, 'head')) method = 'get'
    const { template, documented } = this.template(path, method)
    if (!METHODS.includes(method)) return [`method ${observed.method} is not an HTTP method`]

    if (!template || !documented) {
      // The router's answer to an unknown path or method, or the input gate's to a body it
      // refuses before routing (413, 415): a problem document, nothing more.
      if ([404, 405, 413, 415].includes(observed.status)) return this.#problemOnly(observed)
      return [`${observed.method} ${path} is not documented`]
    }

    const operationAt = ['paths', template, method]
    const responses = this.document.paths[template][method].responses ?? {}
    const status = String(observed.status)
    const key = [status, `${status[0]}XX`, `${status[0]}xx`, 'default'].find(
      (candidate) => candidate in responses
    )
    if (!key) {
      return [
        `status ${status} is not declared (declared: ${Object.keys(responses).join(', ') || 'none'})`,
      ]
    }
    const [response, responseAt] = this.#deref(responses[key], [...operationAt, 'responses', key])
    if (!response) return [`response ${key} has an unresolvable $ref`]

    const errors = [
      ...this.#headerErrors(observed, response, responseAt),
      ...this.#bodyErrors(observed, response, responseAt),
    ]
    return errors
  }

  #hasOperation(path: string, method: string) {
    return this.#operations.some(
      (operation) => operation.regex.test(path) && this.document.paths[operation.path]?.[method]
    )
  }

  #problemOnly(observed: ObservedResponse): string[] {
    if (observed.body.length === 0 || !this.document.components?.schemas?.Problem) return []
    const mediaType = String(observed.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
    if (!isJsonType(mediaType)) return []
    const body = this.#parse(observed.body)
    if (body.error) return [body.error]
    const error = this.#validate(['components', 'schemas', 'Problem'], body.value)
    return error ? [`body (unknown route): ${error}`] : []
  }

  #headerErrors(observed: ObservedResponse, response: Json, at: (string | number)[]) {
    const errors: string[] = []
    for (const [name, declaration] of Object.entries<Json>(response.headers ?? {})) {
      // OpenAPI: a Content-Type header definition is ignored (the media types say it).
      if (name.toLowerCase() === 'content-type') continue
      const [header, headerAt] = this.#deref(declaration, [...at, 'headers', name])
      const sent = observed.headers[name.toLowerCase()]
      if (sent === undefined) {
        if (header?.required) errors.push(`required header ${name} is missing`)
        continue
      }
      if (!header?.schema) continue
      const value = Array.isArray(sent) ? sent.join(', ') : sent
      let error = this.#validate([...headerAt, 'schema'], value)
      // Header values are strings on the wire; a numeric schema reads them as numbers.
      if (error && /^-?\d+(\.\d+)?$/.test(value)) {
        error = this.#validate([...headerAt, 'schema'], Number(value))
      }
      if (error) errors.push(`header ${name}: ${error}`)
    }
    return errors
  }

  #bodyErrors(observed: ObservedResponse, response: Json, at: (string | number)[]) {
    const content: Json = response.content ?? {}
    const declared = Object.keys(content)
    const bodyless =
      observed.method.toUpperCase() === 'HEAD' || [204, 304].includes(observed.status)
    if (observed.body.length === 0) {
      if (bodyless || declared.length === 0) return []
      return [`empty body, but the document declares ${declared.join(', ')}`]
    }
    const mediaType = String(observed.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase()
    if (declared.length === 0) {
      return [`a ${mediaType || 'untyped'} body is sent, but the document declares no content`]
    }
    const [type] = mediaType.split('/')
    const match = [mediaType, `${type}/*`, '*/*'].find((candidate) =>
      declared.some((name) => name.toLowerCase() === candidate)
    )
    if (!match) {
      return [
        `Content-Type ${mediaType || '(none)'} is not declared (declared: ${declared.join(', ')})`,
      ]
    }
    const name = declared.find((candidate) => candidate.toLowerCase() === match)!
    if (!content[name]?.schema) return []
    const schemaAt = [...at, 'content', name, 'schema']
    let value: unknown
    if (isJsonType(mediaType)) {
      const parsed = this.#parse(observed.body)
      if (parsed.error) return [parsed.error]
      value = parsed.value
    } else if (isTextType(mediaType)) {
      value = observed.body.toString('utf8')
    } else {
      // Binary media (photos): the media type is the contract; a schema cannot read the bytes.
      return []
    }
    const error = this.#validate(schemaAt, value)
    return error ? [`body (${name}): ${error}`] : []
  }

  #parse(body: Buffer): { value?: unknown; error?: string } {
    try {
      return { value: JSON.parse(body.toString('utf8')) }
    } catch {
      return { error: 'the body is not valid JSON' }
    }
  }
}

let checker: Promise<ContractChecker> | null = null

/** The checker for the running test server's document, fetched once. */
function serverChecker() {
  checker ??= fetch(baseUrl() + '/v3/openapi.json')
    .then((response) => response.json())
    .then((document) => new ContractChecker(document as Json))
    .catch((error) => {
      // Not cached: the next response tries again (e.g. after a test stopped the database).
      checker = null
      throw error
    })
  return checker
}

export class ContractMismatch extends Error {}

/**
 * Fails (throws) when the response disagrees with the running server's document. With
 * CONTRACT_REPORT=<file> it appends each mismatch to that file (JSON lines) instead, to survey
 * a whole run.
 */
export async function assertContract(observed: ObservedResponse) {
  const contract = await serverChecker()
  const errors = contract.errors(observed)
  if (errors.length === 0) return
  const method = observed.method.toUpperCase()
  const { template } = contract.template(observed.path, method.toLowerCase())
  if (process.env.CONTRACT_REPORT) {
    const entry = { method, path: observed.path, template, status: observed.status, errors }
    appendFileSync(process.env.CONTRACT_REPORT, JSON.stringify(entry) + '\n')
    return
  }
  throw new ContractMismatch(
    `Response does not match /v3/openapi.json: ${method} ${observed.path} → ${observed.status}\n  - ${errors.join('\n  - ')}`
  )
}
