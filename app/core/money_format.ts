/*
 * Money as people read it in Argentina (`$ 21.500.000`, `US$ 18.000,50`): the
 * buyers' pages and the lead mails show prices the same way, so it lives here.
 */
type Money = { currency: string; amount: number } | null

export function formatMoney(value: Money): string | null {
  if (!value) return null
  const whole = Number.isInteger(value.amount)
  return new Intl.NumberFormat('es-AR', {
    style: 'currency',
    currency: value.currency,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(value.amount)
}
