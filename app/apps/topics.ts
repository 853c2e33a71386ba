/*
 * Topics an app can subscribe to (docs/design.md §9, §14), and the stored
 * shape of a subscription's custom header: plain values, shared by the model,
 * the store, validators and transformers without loading the model.
 */
export const APP_TOPICS = ['invitaciones', 'publicaciones', 'consultas', 'entregas'] as const
export type AppTopic = (typeof APP_TOPICS)[number]

export function isAppTopic(value: string): value is AppTopic {
  return (APP_TOPICS as readonly string[]).includes(value)
}

/** A custom header as stored (`HeaderCustom0N` → slot N-1). */
export type StoredHeader = { name: string; value: string } | null
