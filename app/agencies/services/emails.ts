/** E-mails are case-insensitive everywhere: every lookup and store goes through this. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase()
}
