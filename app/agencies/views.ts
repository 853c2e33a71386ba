/** The `agencies::` Edge disk (registration page and mails), mounted on first use. */
import edge from 'edge.js'

const DISK = 'agencies'

export function renderView(template: string, data: Record<string, unknown>) {
  if (!edge.loader.mounted[DISK]) edge.mount(DISK, new URL('./views', import.meta.url))
  return edge.render(`${DISK}::${template}`, data)
}
