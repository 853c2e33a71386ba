import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  commands: [
    () => import('@adonisjs/core/commands'),
    () => import('@adonisjs/lucid/commands'),
    () => import('#start/commands'),
  ],

  providers: [
    // The core module. First registered, last shut down: stops the embedded database
    // after everything else (app/core/core_provider.ts).
    () => import('#core/core_provider'),
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    { file: () => import('@adonisjs/core/providers/repl_provider'), environment: ['repl', 'test'] },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/core/providers/edge_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/cors/cors_provider'),
    () => import('@adonisjs/mail/mail_provider'),
    () => import('@adonisjs/drive/drive_provider'),
    () => import('@adonisjs/session/session_provider'),
    () => import('@adonisjs/shield/shield_provider'),
    // The feature modules, in the modules' order: a module's boot() registers on the
    // hooks of modules above it, and hooks run in this order (listings before leads).
    () => import('#catalog/provider'),
    () => import('#apps/provider'),
    () => import('#agencies/provider'),
    () => import('#listings/provider'),
    () => import('#leads/provider'),
    () => import('#buyers/provider'),
  ],

  preloads: [
    () => import('#start/routes'),
    () => import('#start/kernel'),
    { file: () => import('#start/metrics'), environment: ['web'] },
  ],

  tests: {
    suites: [
      { files: ['tests/unit/**/*.spec.ts'], name: 'unit', timeout: 5000 },
      { files: ['tests/functional/**/*.spec.ts'], name: 'functional', timeout: 30000 },
    ],
    forceExit: false,
  },

  metaFiles: [{ pattern: 'app/**/views/**/*.edge', reloadServer: false }],
})
