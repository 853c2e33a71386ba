/*
 * Wire → code for the intake body (docs/design.md §6), shared by the API and the
 * buyers' forms: Vine, then the rules that span fields, then the domain request
 * the intake service takes. Failures are wire-keyed errors (400).
 */
import { errors as vineErrors } from '@vinejs/vine'
import type { ProblemErrors } from '#core/http/problem'
import { errorsFromVine } from '#core/http/exception_handler'
import type { OperationInfo } from '#leads/models/inquiry'
import type { InquiryRequest } from '#leads/services/receive_inquiry'
import { intakeValidator, type IntakeInput } from './inquiry_validators.js'

export type IntakeRead = { ok: true; value: InquiryRequest } | { ok: false; errors: ProblemErrors }

export async function readIntake(input: unknown): Promise<IntakeRead> {
  const [error, body] = await intakeValidator.tryValidate(blanksToNull(input))
  if (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    return { ok: false, errors: errorsFromVine(error.messages) }
  }
  const rules = crossFieldRules(body)
  if (rules) return { ok: false, errors: rules }
  return { ok: true, value: toInquiryRequest(body) }
}

/** Blank optional texts count as absent (forms send ''). */
function blanksToNull(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const body = { ...(input as Record<string, unknown>) }
  const buyer = body.Interesado
  if (buyer && typeof buyer === 'object' && !Array.isArray(buyer)) {
    body.Interesado = Object.fromEntries(
      Object.entries(buyer).map(([key, value]) => [
        key,
        typeof value === 'string' && value.trim() === '' ? null : value,
      ])
    )
  }
  for (const key of ['ExternalId', 'VersionId']) if (body[key] === '') body[key] = null
  return body
}

/** Exactly one subject (listing or catalogue version); some way to reach the buyer. */
function crossFieldRules(body: IntakeInput): ProblemErrors | null {
  const errors: ProblemErrors = {}
  const hasListing = Boolean(body.ExternalId)
  const hasVersion = body.VersionId !== null && body.VersionId !== undefined
  if (hasListing === hasVersion) {
    errors._ = ['Indique ExternalId (publicación) o VersionId (catálogo), uno de los dos.']
  }
  if (!body.Interesado.Email && !body.Interesado.Telefono) {
    errors.Interesado = ['Indique Email o Telefono del interesado.']
  }
  return Object.keys(errors).length > 0 ? errors : null
}

const money = (valor: { Moneda: string; Importe: number } | null | undefined) =>
  valor ? { currency: valor.Moneda, amount: valor.Importe } : null

function operationInfo(input: IntakeInput['Interesado']['InfoOperacion']): OperationInfo | null {
  if (!input) return null
  const tradeIn = input.EntregaVehiculo
  const financing = input.FinanciacionDeseada
  return {
    tradeIn: tradeIn
      ? {
          brand: tradeIn.Marca ?? null,
          model: tradeIn.Modelo ?? null,
          versionYear: tradeIn.VersionYear ?? null,
        }
      : null,
    financing: financing
      ? { downPayment: money(financing.Adelanto), installment: money(financing.Cuota) }
      : null,
    wantsInsuranceQuote: input.QuiereCotizacionSeguro ?? null,
  }
}

function toInquiryRequest(body: IntakeInput): InquiryRequest {
  const buyer = body.Interesado
  return {
    subject: body.ExternalId
      ? { kind: 'listing', externalId: body.ExternalId }
      : { kind: 'catalog', versionId: body.VersionId! },
    origin: body.OrigenLead,
    buyer: {
      interest: buyer.Interes ?? null,
      firstName: buyer.Nombre ?? null,
      lastName: buyer.Apellido ?? null,
      email: buyer.Email?.toLowerCase() ?? null,
      phone: buyer.Telefono ?? null,
      documentId: buyer.DocIdentidad ?? null,
      province: buyer.Provincia ?? null,
      city: buyer.Ciudad ?? null,
      comment: buyer.Comentario ?? null,
      operationInfo: operationInfo(buyer.InfoOperacion),
    },
  }
}
