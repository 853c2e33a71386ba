/** `+{country}{zone}{number}`: a messaging-app (WhatsApp-type) number (docs/spec.md §2.6). */
export const WHATSAPP_FORMAT = /^\+[1-9]\d{6,18}$/

export function isWhatsapp(phone: string): boolean {
  return WHATSAPP_FORMAT.test(phone.replace(/[\s-]/g, ''))
}

/** Files a list of phones: the first WhatsApp-form one, the first other one, the rest. */
export function splitPhones(phones: string[]) {
  let whatsapp: string | null = null
  let workPhone: string | null = null
  const otherPhones: string[] = []
  for (const phone of phones) {
    if (!whatsapp && isWhatsapp(phone)) whatsapp = phone
    else if (!workPhone && !isWhatsapp(phone)) workPhone = phone
    else otherPhones.push(phone)
  }
  return { whatsapp, workPhone, otherPhones }
}
