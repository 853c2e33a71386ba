/*
 * App isolation as the default way to query: models owned by an app mix this
 * in and read through `forApp(caller)` instead of `query()`.
 */
import { BaseModel, column } from '@adonisjs/lucid/orm'
import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'

export type Caller = { id: number }

export function AppScoped<T extends NormalizeConstructor<typeof BaseModel>>(superclass: T) {
  class Scoped extends superclass {
    @column()
    declare appId: number

    /** Rows of the calling app only. */
    static forApp<M extends typeof Scoped>(this: M, caller: Caller) {
      return this.query().where(`${this.table}.app_id`, caller.id)
    }
  }
  return Scoped
}
