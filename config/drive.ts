/*
 * Photo storage (docs/design.md §2, §12). `fs` keeps files under DATA_DIR/photos
 * (one machine); `s3` writes to an S3-compatible bucket (several machines).
 * Files are always served by the service itself under /fotos, so both disks
 * give the same public URLs.
 */
import { isAbsolute, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { defineConfig, services } from '@adonisjs/drive'

const dataDir = env.get('DATA_DIR') || 'tmp'
const disk = env.get('DRIVE_DISK') ?? 'fs'

const driveConfig = defineConfig({
  default: disk,
  services: {
    fs: services.fs({
      location: join(isAbsolute(dataDir) ? dataDir : app.makePath(dataDir), 'photos'),
      visibility: 'private',
    }),
    // The S3 driver needs @aws-sdk/client-s3; it is only loaded when chosen.
    ...(disk === 's3'
      ? {
          s3: services.s3({
            credentials: {
              accessKeyId: env.get('S3_ACCESS_KEY_ID') ?? '',
              secretAccessKey: env.get('S3_SECRET_ACCESS_KEY') ?? '',
            },
            region: env.get('S3_REGION') ?? 'us-east-1',
            bucket: env.get('S3_BUCKET') ?? '',
            endpoint: env.get('S3_ENDPOINT') || undefined,
            forcePathStyle: env.get('S3_FORCE_PATH_STYLE') ?? false,
            visibility: 'private',
          }),
        }
      : {}),
  } as Record<string, any>,
})

export default driveConfig
