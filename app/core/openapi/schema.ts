/*
 * Wire shapes declared once as JSON Schema: the document publishes them and
 * `Wire<typeof Shape>` is the TypeScript type a transformer returns, so a
 * transformer that drifts from its schema fails `tsc` (docs/design.md §4).
 */

type Primitive<T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : never

type RequiredKeys<S> = S extends { required: readonly (infer Name)[] } ? Name : never

type WireObject<S> = S extends { properties: infer P }
  ? { [K in keyof P as K extends RequiredKeys<S> ? K : never]: Wire<P[K]> } & {
      [K in keyof P as K extends RequiredKeys<S> ? never : K]?: Wire<P[K]>
    }
  : S extends { additionalProperties: infer A }
    ? Record<string, Wire<A>>
    : Record<string, unknown>

type Typed<S, T> = T extends 'object'
  ? WireObject<S>
  : T extends 'array'
    ? S extends { items: infer Item }
      ? Wire<Item>[]
      : unknown[]
    : Primitive<T>

/** The TypeScript type of the values a JSON Schema (declared `const`) accepts. */
export type Wire<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { anyOf: readonly (infer A)[] }
      ? Wire<A>
      : S extends { type: readonly (infer T)[] }
        ? Typed<S, T>
        : S extends { type: infer T }
          ? Typed<S, T>
          : unknown

const names = new WeakMap<object, string>()

/**
 * Names a schema: the document lists it under `components.schemas` and refers
 * to it with `$ref` wherever it is used.
 */
export function named<const S extends object>(name: string, schema: S): S {
  names.set(schema, name)
  return schema
}

/**
 * Replaces every named schema below the top by a `$ref`, collecting the
 * definitions into `components`.
 */
export function refsOf(value: unknown, components: Record<string, unknown>, top = true): unknown {
  if (Array.isArray(value)) return value.map((item) => refsOf(item, components, false))
  if (value === null || typeof value !== 'object') return value
  const name = names.get(value)
  if (name !== undefined && !top) {
    if (!(name in components)) {
      components[name] = {}
      components[name] = refsOf(value, components, true)
    }
    return { $ref: `#/components/schemas/${name}` }
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, refsOf(item, components, false)])
  )
}

type Shape<Type, P> = { type: Type; required: Extract<keyof P, string>[]; properties: P }

/** An object schema whose properties are all sent: every one is `required`. */
export function object<const P extends Record<string, object>>(properties: P): Shape<'object', P> {
  return {
    type: 'object',
    required: Object.keys(properties) as Extract<keyof P, string>[],
    properties,
  }
}

/** The same, or null. */
export function nullableObject<const P extends Record<string, object>>(
  properties: P
): Shape<readonly ['object', 'null'], P> {
  return { ...object(properties), type: ['object', 'null'] as const }
}
