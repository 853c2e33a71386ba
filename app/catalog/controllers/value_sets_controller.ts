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
  currencyFull,
  currencyRef,
  namedFull,
  namedRef,
  type NamedValue,
} from '#catalog/transformers/reference_transformer'
import { listShapes, shapes } from '#catalog/transformers/vehicle_transformer'
import { notFound, respondCatalog } from './catalog_response.js'

const named = (collection: string, values: readonly string[]): NamedValue[] =>
  values.map((name) => ({ collection, key: slug(name), name, codename: slug(name) }))

const SETS = {
  propulsiones: named('propulsiones', PROPULSIONS),
  transmisiones: named('transmisiones', TRANSMISSIONS),
}

/** Currencies, body types and the closed value sets of docs/design.md §5. */
export default class ValueSetsController {
  /** GET /v3/monedas: the currencies accepted in Valor. */
  @inject()
  async currencies(ctx: HttpContext, places: PlaceDirectory) {
    const currencies = await places.acceptedCurrencies()
    return respondCatalog(
      ctx,
      listShapes({ self: link('/v3/monedas') }, currencies, currencyFull, currencyRef)
    )
  }

  /** GET /v3/monedas/{codigo}: any ISO 4217 currency. */
  @inject()
  async currency(ctx: HttpContext, places: PlaceDirectory) {
    const { codigo } = await ctx.request.validateUsing(currencyCodeValidator, {
      data: { codigo: ctx.params.codigo },
    })
    const currency = await places.currency(codigo)
    if (!currency) throw notFound('La moneda')
    return respondCatalog(ctx, shapes(currency, currencyFull, currencyRef))
  }

  /** GET /v3/carrocerias */
  async bodyTypes(ctx: HttpContext) {
    const values = BODY_TYPES.map((bodyType) => ({
      collection: 'carrocerias',
      key: bodyType.id,
      ...bodyType,
    }))
    return respondCatalog(
      ctx,
      listShapes({ self: link('/v3/carrocerias') }, values, namedFull, namedRef)
    )
  }

  /** GET /v3/carrocerias/{id}: also by codename or name. */
  @inject()
  async bodyType(ctx: HttpContext, resolver: VehicleResolver) {
    const found = resolver.bodyType(String(ctx.params.id))
    if (!found.ok) throw notFound('La carrocería')
    return respondCatalog(
      ctx,
      shapes(
        { collection: 'carrocerias', key: found.value.id, ...found.value },
        namedFull,
        namedRef
      )
    )
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
  return respondCatalog(
    ctx,
    listShapes({ self: link(`/v3/${set}`) }, SETS[set], namedFull, namedRef)
  )
}

function showValue(ctx: HttpContext, set: SetName) {
  const key = slug(String(ctx.params.codename))
  const value = SETS[set].find((entry) => entry.codename === key)
  if (!value) throw notFound('El valor')
  return respondCatalog(ctx, shapes(value, namedFull, namedRef))
}
