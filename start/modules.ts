/*
 * The feature modules and what each contributes to the application. Core
 * reads this list (app/core/modules.ts); it never imports a module itself.
 * Listed in dependency order: a module's `boot` registers on the hooks of
 * modules above it, and hooks run in this order (listings before leads).
 */
import { registerModules } from '#core/modules'

await registerModules([
  {
    name: 'core',
    jobs: () => import('#core/outbound/jobs'),
    openapi: () => import('#core/openapi/core'),
  },
  {
    name: 'core.http',
    jobs: () => import('#core/http/jobs'),
    openapi: () => import('#core/metrics/openapi'),
  },
  {
    name: 'catalog',
    boot: () => import('#catalog/boot'),
    openapi: () => import('#catalog/openapi'),
    referenceData: () => import('#catalog/reference_data'),
  },
  {
    name: 'apps',
    boot: () => import('#apps/boot'),
    jobs: () => import('#apps/jobs'),
    openapi: () => import('#apps/openapi'),
    start: () => import('#apps/start'),
  },
  {
    name: 'agencies',
    boot: () => import('#agencies/boot'),
    jobs: () => import('#agencies/jobs'),
    openapi: () => import('#agencies/openapi'),
  },
  {
    name: 'listings',
    boot: () => import('#listings/boot'),
    jobs: () => import('#listings/jobs'),
    openapi: () => import('#listings/openapi'),
    metrics: () => import('#listings/metrics'),
  },
  {
    name: 'leads',
    boot: () => import('#leads/boot'),
    jobs: () => import('#leads/jobs'),
    openapi: () => import('#leads/openapi'),
    metrics: () => import('#leads/metrics'),
    deliveryDead: () => import('#leads/services/inquiry_events'),
  },
  {
    name: 'buyers',
    jobs: () => import('#buyers/jobs'),
    openapi: () => import('#buyers/openapi'),
    // After the apps step: builds on the demo app it created (the first five minutes, README).
    start: () => import('#buyers/demo'),
  },
])
