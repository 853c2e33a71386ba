/*
 * The feature modules and what each contributes to the application. Core
 * reads this list (app/core/modules.ts); it never imports a module itself.
 */
import { registerModules } from '#core/modules'

await registerModules([
  {
    name: 'core',
    jobs: () => import('#core/outbound/jobs'),
    openapi: () => import('#core/openapi/core'),
  },
  {
    name: 'catalog',
    openapi: () => import('#catalog/openapi'),
    referenceData: () => import('#catalog/reference_data'),
  },
  { name: 'apps', jobs: () => import('#apps/jobs'), openapi: () => import('#apps/openapi') },
  {
    name: 'agencies',
    jobs: () => import('#agencies/jobs'),
    openapi: () => import('#agencies/openapi'),
  },
  {
    name: 'listings',
    jobs: () => import('#listings/jobs'),
    openapi: () => import('#listings/openapi'),
  },
  {
    name: 'leads',
    jobs: () => import('#leads/jobs'),
    openapi: () => import('#leads/openapi'),
    deliveryDead: () => import('#leads/services/inquiry_events'),
  },
  { name: 'buyers', jobs: () => import('#buyers/jobs'), openapi: () => import('#buyers/openapi') },
])
