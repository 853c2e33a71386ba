import { test } from '@japa/runner'
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import FetchPhoto, {
  DOWNLOADS_DIR,
  privateFolder,
  sweepDownloads,
} from '#listings/jobs/fetch_photo'
import { jpegShrink, processPhoto } from '#listings/services/process_photo'

/** A photo-like picture (smooth shapes from enlarged noise) that encodes fast at any size. */
const picture = async (width: number, height: number) =>
  sharp(
    await sharp({
      create: {
        width: 64,
        height: 48,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer()
  ).resize(width, height, { fit: 'fill' })

test.group('Photo pipeline: decoding a JPEG file at a fraction of its size', (group) => {
  let dir: string
  group.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'process-photo-'))
    return () => rm(dir, { recursive: true, force: true })
  })

  test('a JPEG {width} px wide is decoded at 1/{shrink}: still 1920 px or more')
    .with([
      { width: 3839, shrink: 1 },
      { width: 3840, shrink: 2 },
      { width: 7679, shrink: 2 },
      { width: 7680, shrink: 4 },
      { width: 15359, shrink: 4 },
      { width: 15360, shrink: 8 },
      { width: 40000, shrink: 8 },
    ])
    .run(({ assert }, { width, shrink }) => {
      assert.equal(jpegShrink(width), shrink)
    })

  test('a 4000×3000 JPEG file gives the same 1920×1440 photo and thumbnail as its bytes', async ({
    assert,
  }) => {
    const bytes = await (await picture(4000, 3000)).jpeg({ quality: 85 }).toBuffer()
    const file = join(dir, 'wide')
    await writeFile(file, bytes)
    const fromFile = await processPhoto(file)
    const fromBytes = await processPhoto(bytes)
    assert.isTrue(fromFile.ok && fromBytes.ok)
    if (!fromFile.ok || !fromBytes.ok) return
    assert.deepEqual([fromFile.value.width, fromFile.value.height], [1920, 1440])
    assert.deepEqual([fromBytes.value.width, fromBytes.value.height], [1920, 1440])
    const thumbnail = await sharp(fromFile.value.thumbnail).metadata()
    assert.deepEqual([thumbnail.width, thumbnail.height], [400, 300])
    // Decoded at half size by libjpeg, then resized: the same picture, not a different crop.
    const [a, b] = await Promise.all(
      [fromFile.value.image, fromBytes.value.image].map((image) =>
        sharp(image).resize(48, 36).raw().toBuffer()
      )
    )
    const meanDifference = a.reduce((sum, value, i) => sum + Math.abs(value - b[i]), 0) / a.length
    assert.isBelow(meanDifference, 4)
  }).timeout(30_000)

  test('a quarter-turned JPEG file is scaled by its upright width and comes out upright', async ({
    assert,
  }) => {
    // Stored 3000×4000 with EXIF orientation 6: upright it is 4000×3000 (scaled 1/2).
    const turned = join(dir, 'turned')
    await writeFile(
      turned,
      await (await picture(3000, 4000)).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    )
    // Stored 4000×3000 with orientation 6: upright 3000×4000, under 3840 wide (decoded whole).
    const portrait = join(dir, 'portrait')
    await writeFile(
      portrait,
      await (await picture(4000, 3000)).withMetadata({ orientation: 6 }).jpeg().toBuffer()
    )
    const [landscape, upright] = await Promise.all([processPhoto(turned), processPhoto(portrait)])
    assert.isTrue(landscape.ok && upright.ok)
    if (!landscape.ok || !upright.ok) return
    assert.deepEqual([landscape.value.width, landscape.value.height], [1920, 1440])
    assert.deepEqual([upright.value.width, upright.value.height], [1920, 2560])
    assert.isUndefined((await sharp(landscape.value.image).metadata()).orientation)
  }).timeout(30_000)

  test('a file that is not a JPEG is decoded from its bytes; a damaged JPEG file is refused', async ({
    assert,
  }) => {
    const png = join(dir, 'png')
    await writeFile(png, await (await picture(800, 600)).png().toBuffer())
    const fromPng = await processPhoto(png)
    assert.isTrue(fromPng.ok)
    if (fromPng.ok) assert.deepEqual([fromPng.value.width, fromPng.value.height], [800, 600])

    const whole = await (await picture(4000, 3000)).jpeg().toBuffer()
    const cut = join(dir, 'cut')
    await writeFile(cut, whole.subarray(0, whole.length / 2))
    const fromCut = await processPhoto(cut)
    assert.isFalse(fromCut.ok)
    if (!fromCut.ok) assert.equal(fromCut.details?.issue, 'damaged')

    const text = join(dir, 'text')
    await writeFile(text, 'not a photo')
    const fromText = await processPhoto(text)
    assert.isFalse(fromText.ok)
    if (!fromText.ok) assert.deepEqual(fromText.details, { issue: 'unreadable', decoded: false })
  }).timeout(30_000)
})

test.group('Photo pipeline warm-up', () => {
  test('the worker warms the photo queue: codecs through a photo, leftovers of dead workers removed', async ({
    assert,
  }) => {
    await sweepDownloads()
    const stale = join(DOWNLOADS_DIR, 'stale-test')
    const fresh = join(DOWNLOADS_DIR, 'fresh-test')
    await writeFile(stale, 'left by a killed worker')
    await writeFile(fresh, 'a download in progress')
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    await utimes(stale, twoHoursAgo, twoHoursAgo)
    try {
      await FetchPhoto.warmUp()
      const left = await readdir(DOWNLOADS_DIR)
      assert.notInclude(left, 'stale-test')
      assert.include(left, 'fresh-test')
    } finally {
      await rm(fresh, { force: true })
      await rm(stale, { force: true })
    }
  }).timeout(30_000)
})

test.group('Photo downloads folder', (group) => {
  let dir: string
  group.each.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'downloads-folder-'))
    return () => rm(dir, { recursive: true, force: true })
  })

  test('a missing folder is made for this user alone; one of ours open to others is closed', async ({
    assert,
  }) => {
    const made = await privateFolder(join(dir, 'new'))
    assert.equal((await stat(made)).mode & 0o777, 0o700)
    const open = join(dir, 'open')
    await mkdir(open)
    await chmod(open, 0o777)
    await privateFolder(open)
    assert.equal((await stat(open)).mode & 0o777, 0o700)
  })

  test('a link in its place, or a folder of another user, is refused', async ({ assert }) => {
    const elsewhere = join(dir, 'elsewhere')
    await mkdir(elsewhere, { mode: 0o700 })
    const link = join(dir, 'link')
    await symlink(elsewhere, link)
    await assert.rejects(() => privateFolder(link), /not a folder of this user/)
    // Only root can give a folder away (CI and this machine run the tests as root).
    if (process.getuid?.() !== 0) return
    const foreign = join(dir, 'foreign')
    await mkdir(foreign, { mode: 0o700 })
    await chown(foreign, 65534, 65534)
    await assert.rejects(() => privateFolder(foreign), /not a folder of this user/)
  })
})
