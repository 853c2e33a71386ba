import { test } from '@japa/runner'
import FetchPhoto from '#listings/jobs/fetch_photo'
import { warmUpPhotoCodec } from '#listings/services/process_photo'

test.group('Photo pipeline warm-up', () => {
  test('the worker warms the photo queue with a photo the pipeline accepts', async ({ assert }) => {
    assert.strictEqual(FetchPhoto.warmUp, warmUpPhotoCodec)
    await assert.doesNotReject(() => warmUpPhotoCodec())
  })
})
