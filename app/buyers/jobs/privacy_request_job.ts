import { inject } from '@adonisjs/core'
import type { JobHandler } from '#core/jobs/types'
import FulfilPrivacyRequest from '#buyers/services/privacy/fulfil_privacy_request'
import type { PrivacyRequestJob as Data } from '#buyers/services/privacy/file_privacy_request'

/** Idempotent: a request already done is left alone. */
@inject()
export default class PrivacyRequestJob implements JobHandler<Data> {
  constructor(private fulfil: FulfilPrivacyRequest) {}

  async handle(data: Data) {
    await this.fulfil.execute(data.requestId)
  }
}
