/*
 * The registration page in headless Chromium with JavaScript switched off:
 * the invited person follows the mailed link, fills the form by its labels,
 * gets the message next to the field, fixes it and registers.
 * Skipped, saying why, when /usr/bin/chromium is not installed.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import Operator from '#agencies/models/operator'
import { createCaller } from '#tests/helpers/apps'
import {
  invitationBody,
  mailingGroup,
  mailsTo,
  postInvitation,
  registrationLink,
} from './support.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
]

test.group('Agencies / registration page in a browser without JavaScript', (group) => {
  const world = mailingGroup(group)

  test('follow the mailed link, correct the form, register', async ({ client, assert }) => {
    const { chromium } = await import('playwright-core')
    const { token } = await createCaller('Browser dealer app')
    const body = invitationBody({
      NombreComercial: 'Automotores del Sur',
      AdminNombre: null,
      AdminApellido: null,
    })
    await postInvitation(client, token, body)
    const link = registrationLink((await mailsTo(world.sink, body.AdminMail))[0])

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, locale: 'es-AR' })
      const page = await context.newPage()
      const opened = await page.goto(link)
      assert.equal(opened?.status(), 200)
      assert.equal(await page.getAttribute('html', 'lang'), 'es')
      assert.equal(await page.title(), 'Registro de Automotores del Sur')

      await page.getByLabel('Nombre', { exact: true }).fill('Julieta')
      await page.getByLabel('Apellido').fill('Ríos')
      await page.getByLabel('Contraseña').fill('corta')
      await page.getByRole('button', { name: 'Completar el registro' }).click()
      await page.waitForLoadState()
      assert.equal(
        await page.textContent('#Password-error'),
        'El campo Contraseña debe tener al menos 10 caracteres.'
      )
      assert.equal(await page.getAttribute('#Password', 'aria-invalid'), 'true')
      assert.equal(
        await page.getAttribute('#Password', 'aria-describedby'),
        'Password-ayuda Password-error'
      )
      assert.equal(await page.inputValue('#AdminApellido'), 'Ríos', 'values survive the round trip')
      mkdirSync(app.makePath('tmp'), { recursive: true })
      await page.screenshot({
        path: app.makePath('tmp/agencies-registration-error.png'),
        fullPage: true,
      })

      await page.getByLabel('Contraseña').fill('una-clave-bien-larga')
      await page.getByRole('button', { name: 'Completar el registro' }).click()
      await page.waitForLoadState()
      assert.equal(await page.textContent('h1'), 'Registro completo')
      await page.screenshot({
        path: app.makePath('tmp/agencies-registration-done.png'),
        fullPage: true,
      })
    } finally {
      await browser.close()
    }
    const admin = await Operator.findByOrFail('email', body.AdminMail)
    assert.equal(`${admin.firstName} ${admin.lastName}`, 'Julieta Ríos')
  })
    .skip(!existsSync(CHROMIUM), `${CHROMIUM} is not installed`)
    .timeout(60_000)
})
