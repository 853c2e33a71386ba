/*
 * Wire → code for GET /v3/eventos (docs/design.md §14): `desde` is the opaque
 * cursor a previous page's `_links.next` carried; `topico` one app topic.
 */
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { APP_TOPICS } from '#apps/topics'

/** base64url of `<transaction id>.<event uuid>` (app/apps/services/event_history.ts). */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,120}$/

export const eventHistoryValidator = vine.create({
  desde: vine.string().regex(CURSOR_PATTERN).optional(),
  topico: vine.enum(APP_TOPICS).optional(),
})

export type EventHistoryQuery = Infer<typeof eventHistoryValidator>
