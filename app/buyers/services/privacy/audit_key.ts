/*
 * The key of the privacy audit's HMACs: APP_KEY (config/app.ts), so an
 * operator holding the key can tell whether two audit rows name the same
 * person, and nobody can read the person back. Injectable, so unit specs pass
 * their own.
 */
import { appKey } from '#config/app'

export class AuditKey {
  value(): string {
    return appKey.release()
  }
}

export default AuditKey
