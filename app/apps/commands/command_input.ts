/** `APP_ID` / `TOKEN_ID` of the apps commands: a positive integer of the id columns, else null. */
export function idOf(value: string | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null
  const id = Number(value)
  return id <= 2_147_483_647 ? id : null
}
