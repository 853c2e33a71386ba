import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { link } from '#core/http/links'
import { PROPULSIONS, TRANSMISSIONS } from '#core/value_sets'
import { BODY_TYPES } from '#catalog/body_types'
import PlaceDirectory from '#catalog/services/place_directory'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import { slug } from '#catalog/services/normalize'
import { currencyCodeValidator } from '#catalog/validators/catalog_validators'
import {
  BODY_TYPE,
  CURRENCY,
  NAMED_VALUE,
  type NamedValue,
} from '#catalog/transformers/reference_transformer'
import { respondFound, respondList } from './catalog_response.js'

const named = (collection: string, values: readonly string[]): NamedValue[] =>
  values.map((name) => ({ collection, key: slug(name), name, codename: slug(name) }))

const SETS = {
  propulsiones: named('propulsiones', PROPULSIONS),
  transmisiones: named('transmisiones', TRANSMISSIONS),
}
const bodyType = (value: (typeof BODY_TYPES)[number]): NamedValue => ({
  collection: 'carrocerias',
  key: value.id,
  ...value,
})

/** Currencies, body types and the closed value sets of docs/design.md §5. */
export default class ValueSetsController {
  /** GET /v3/monedas: the currencies accepted in Valor. */
  @inject()
  async currencies(ctx: HttpContext, places: PlaceDirectory) {
    const currencies = await places.acceptedCurrencies()
    return respondList(ctx, CURRENCY, { self: link('/v3/monedas') }, currencies)
  }

  /** GET /v3/monedas/{codigo}: any ISO 4217 currency. */
  @inject()
  async currency(ctx: HttpContext, places: PlaceDirectory) {
    const { codigo } = await ctx.request.validateUsing(currencyCodeValidator, {
      data: { codigo: ctx.params.codigo },
    })
    return respondFound(ctx, CURRENCY, await places.currency(codigo))
  }

  /** GET /v3/carrocerias */
  bodyTypes(ctx: HttpContext) {
    return respondList(ctx, BODY_TYPE, { self: link('/v3/carrocerias') }, BODY_TYPES.map(bodyType))
  }

  /** GET /v3/carrocerias/{id}: also by codename or name. */
  @inject()
  bodyType(ctx: HttpContext, resolver: VehicleResolver) {
    const found = resolver.bodyType(String(ctx.params.id))
    return respondFound(ctx, BODY_TYPE, found.ok ? bodyType(found.value) : null)
  }

  /** GET /v3/propulsiones */
  propulsions(ctx: HttpContext) {
    return listSet(ctx, 'propulsiones')
  }

  /** GET /v3/propulsiones/{codename}: codename or name, any case or accent. */
  propulsion(ctx: HttpContext) {
    return showValue(ctx, 'propulsiones')
  }

  /** GET /v3/transmisiones */
  transmissions(ctx: HttpContext) {
    return listSet(ctx, 'transmisiones')
  }

  /** GET /v3/transmisiones/{codename}: codename or name, any case or accent. */
  transmission(ctx: HttpContext) {
    return showValue(ctx, 'transmisiones')
  }
}

type SetName = keyof typeof SETS

function listSet(ctx: HttpContext, set: SetName) {
  return respondList(ctx, NAMED_VALUE, { self: link(`/v3/${set}`) }, SETS[set])
}

function showValue(ctx: HttpContext, set: SetName) {
  const key = slug(String(ctx.params.codename))
  return respondFound(
    ctx,
    NAMED_VALUE,
    SETS[set].find((entry) => entry.codename === key)
  )
}
