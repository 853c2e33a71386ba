/*
 * Spanish messages for every Vine rule the API uses; `Errors` values of
 * problem documents are Spanish (docs/design.md §4).
 */
import vine, { SimpleMessagesProvider } from '@vinejs/vine'

export const messages: Record<string, string> = {
  'required': 'El campo {{ field }} es obligatorio.',
  'string': 'El campo {{ field }} debe ser un texto.',
  'email': 'El campo {{ field }} debe ser una dirección de correo válida.',
  'regex': 'El formato del campo {{ field }} no es válido.',
  'url': 'El campo {{ field }} debe ser una URL válida.',
  'minLength': 'El campo {{ field }} debe tener al menos {{ min }} caracteres.',
  'maxLength': 'El campo {{ field }} no debe superar {{ max }} caracteres.',
  'fixedLength': 'El campo {{ field }} debe tener {{ size }} caracteres.',
  'in': 'El valor de {{ field }} no es válido.',
  'notIn': 'El valor de {{ field }} no es válido.',
  'boolean': 'El campo {{ field }} debe ser verdadero o falso.',
  'number': 'El campo {{ field }} debe ser un número.',
  'min': 'El campo {{ field }} debe ser al menos {{ min }}.',
  'max': 'El campo {{ field }} no debe superar {{ max }}.',
  'range': 'El campo {{ field }} debe estar entre {{ min }} y {{ max }}.',
  'positive': 'El campo {{ field }} debe ser positivo.',
  'nonNegative': 'El campo {{ field }} debe ser cero o positivo.',
  'decimal': 'El campo {{ field }} debe tener {{ digits }} decimales.',
  'withoutDecimals': 'El campo {{ field }} debe ser un número entero.',
  'enum': 'El valor de {{ field }} no es válido.',
  'literal': 'El campo {{ field }} debe ser {{ expectedValue }}.',
  'object': 'El campo {{ field }} debe ser un objeto.',
  'array': 'El campo {{ field }} debe ser una lista.',
  'array.minLength': 'El campo {{ field }} debe tener al menos {{ min }} elementos.',
  'array.maxLength': 'El campo {{ field }} no debe tener más de {{ max }} elementos.',
  'notEmpty': 'El campo {{ field }} no debe estar vacío.',
  'distinct': 'El campo {{ field }} tiene valores repetidos.',
  'record': 'El campo {{ field }} debe ser un objeto.',
  'union': 'El valor de {{ field }} no es válido.',
  'unionGroup': 'El valor de {{ field }} no es válido.',
  'unionOfTypes': 'El valor de {{ field }} no es válido.',
  'date': 'El campo {{ field }} debe ser una fecha válida.',
  'date.after': 'El campo {{ field }} debe ser posterior a {{ expectedValue }}.',
  'date.afterOrEqual': 'El campo {{ field }} no debe ser anterior a {{ expectedValue }}.',
  'date.before': 'El campo {{ field }} debe ser anterior a {{ expectedValue }}.',
  'date.beforeOrEqual': 'El campo {{ field }} no debe ser posterior a {{ expectedValue }}.',
  'date.afterOrSameAs': 'El campo {{ field }} no debe ser anterior a {{ otherField }}.',
  'date.beforeOrSameAs': 'El campo {{ field }} no debe ser posterior a {{ otherField }}.',
}

/** Installs the Spanish messages; called once at boot by the core provider. */
export function useSpanishMessages() {
  vine.messagesProvider = new SimpleMessagesProvider(messages)
}

// On import: a validator compiles with the messages provider of its moment, and
// the providers (app/*/provider.ts) import this before any controller or validator.
useSpanishMessages()
