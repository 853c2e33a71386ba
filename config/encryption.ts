import { defineConfig, drivers } from '@adonisjs/core/encryption'
import { appKey } from './app.js'

const encryptionConfig = defineConfig({
  default: 'gcm',
  list: {
    gcm: drivers.aes256gcm({ keys: [appKey], id: 'gcm' }),
  },
})

export default encryptionConfig

declare module '@adonisjs/core/types' {
  export interface EncryptorsList extends InferEncryptors<typeof encryptionConfig> {}
}
