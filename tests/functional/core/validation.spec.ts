import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import { errorsFromVine } from '#core/http/exception_handler'

test.group('Validation errors', () => {
  test('map to wire keys with Spanish messages', async ({ assert }) => {
    const validator = vine.create({
      Color: vine.string().minLength(1),
      Fotos: vine.array(vine.string().url()),
      Interesado: vine.object({ Email: vine.string().email() }),
    })
    try {
      await validator.validate({
        Color: '',
        Fotos: ['https://a.example/x.jpg', 'no-url'],
        Interesado: { Email: 'x' },
      })
      assert.fail('validation should fail')
    } catch (error: any) {
      const errors = errorsFromVine(error.messages)
      assert.deepEqual(Object.keys(errors).sort(), ['Color', 'Fotos.1', 'Interesado.Email'])
      assert.equal(errors.Color[0], 'El campo Color debe tener al menos 1 caracteres.')
      assert.equal(
        errors['Interesado.Email'][0],
        'El campo Email debe ser una dirección de correo válida.'
      )
    }
  })
})
