/*
 * HTML routes answer their errors with their module's pages instead of
 * problem documents. A module registers the path prefixes it serves as HTML;
 * the exception handler asks here before rendering a problem document, so
 * errors raised before the module's own middleware runs (the input gate)
 * get the same pages as the rest.
 */
import type { HttpContext } from '@adonisjs/core/http'

export type ErrorPage = (ctx: HttpContext, status: number) => unknown

const pages: Array<{ prefix: string; render: ErrorPage }> = []

/** Registers `render` for every path under one of `prefixes` (e.g. `/autos/`). */
export function htmlErrorPages(prefixes: string[], render: ErrorPage) {
  for (const prefix of prefixes) pages.push({ prefix, render })
}

/** The page renderer of a request path, if an HTML module claimed it. */
export function errorPageFor(path: string): ErrorPage | undefined {
  for (const page of pages) if (path.startsWith(page.prefix)) return page.render
  return undefined
}
