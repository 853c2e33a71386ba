import { defineConfig } from '@adonisjs/cors'

const corsConfig = defineConfig({
  enabled: true,
  origin: true,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: [
    'etag',
    'location',
    'retry-after',
    'x-request-id',
    'www-authenticate',
    'ratelimit',
    'ratelimit-policy',
  ],
  credentials: false,
  maxAge: 90,
})

export default corsConfig
