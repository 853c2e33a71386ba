/*
 * The public site around the buyers' pages: its name, the Edge disk of this
 * module's views, and the stylesheet's cache-busting version.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import edge from 'edge.js'
import { css } from './assets/stylesheet.js'

export const VIEWS_DISK = 'buyers'

const stylesheet = Buffer.from(css, 'utf8')

export const assets = {
  css: stylesheet,
  cssVersion: createHash('sha256').update(stylesheet).digest('hex').slice(0, 12),
}

export const site = {
  name: 'Autos de Agencias',
  tagline: 'Vehículos publicados por agencias y concesionarias',
  stylesheet: `/recursos/compradores.css?v=${assets.cssVersion}`,
}

const VIEWS_DIR = new URL('./views', import.meta.url)

/** A hash of every template and the stylesheet: part of the pages' ETags. */
export const templatesVersion = (() => {
  const hash = createHash('sha256').update(assets.cssVersion)
  const files = readdirSync(fileURLToPath(VIEWS_DIR), { recursive: true, encoding: 'utf8' }).sort()
  for (const file of files.filter((name) => name.endsWith('.edge'))) {
    hash.update(file).update(readFileSync(new URL(`./views/${file}`, import.meta.url)))
  }
  return hash.digest('hex').slice(0, 16)
})()

/** Mounts `app/buyers/views` as the `buyers::` disk (also after `node ace build`); `site` for every template. */
export function mountViews() {
  if (!edge.loader.mounted[VIEWS_DISK]) edge.mount(VIEWS_DISK, VIEWS_DIR)
  // Components (the layout) see globals, not the page's state.
  edge.global('site', site)
}
