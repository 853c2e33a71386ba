/*
 * Routes live with their modules; this file only gathers them.
 */
import '#core/routes'
import '#apps/routes'
import '#catalog/routes'
import '#agencies/routes'
import '#listings/routes'
import '#leads/routes'
import '#buyers/routes'
