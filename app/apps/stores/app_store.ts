/*
 * The `apps` table: plain CRUD through the Lucid model (docs/architecture.md,
 * store style).
 */
import type { DateTime } from 'luxon'
import App from '#apps/models/app'
import type { Ability } from '#core/auth/abilities'
import type { Tx } from '#core/database/unit_of_work'

export type AppRow = {
  id: number
  name: string
  abilities: Ability[]
  createdAt: DateTime
  disabledAt: DateTime | null
}

const rowOf = (app: App): AppRow => ({
  id: app.id,
  name: app.name,
  abilities: app.abilities,
  createdAt: app.createdAt,
  disabledAt: app.disabledAt ?? null,
})

export default class AppStore {
  async create(fields: { name: string; abilities: Ability[] }, tx?: Tx): Promise<AppRow> {
    return rowOf(await App.create(fields, { client: tx }))
  }

  async find(id: number, tx?: Tx): Promise<AppRow | null> {
    const app = await App.find(id, { client: tx })
    return app ? rowOf(app) : null
  }

  /**
   * The app, its row locked until `tx` ends (`for update`): what issues or
   * revokes its tokens runs one at a time per app, so a count of its live
   * tokens holds until commit and a revocation of them all sees every token
   * committed before it. Null when there is no such app.
   */
  async lock(id: number, tx: Tx): Promise<AppRow | null> {
    const app = await App.query({ client: tx }).where('id', id).forUpdate().first()
    return app ? rowOf(app) : null
  }

  /** The app created first, or null on an empty database. */
  async first(tx?: Tx): Promise<AppRow | null> {
    const app = await App.query({ client: tx }).orderBy('id').first()
    return app ? rowOf(app) : null
  }

  /** Sets or clears `disabled_at`; null when there is no such app. */
  async setDisabledAt(id: number, at: DateTime | null, tx?: Tx): Promise<AppRow | null> {
    const app = await App.find(id, { client: tx })
    if (!app) return null
    app.disabledAt = at
    await app.save()
    return rowOf(app)
  }

  /** Replaces the app's abilities; null when there is no such app. */
  async setAbilities(id: number, abilities: Ability[], tx?: Tx): Promise<AppRow | null> {
    const app = await App.find(id, { client: tx })
    if (!app) return null
    app.abilities = abilities
    await app.save()
    return rowOf(app)
  }
}
