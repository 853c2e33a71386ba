import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ModuleRegistry from '#core/modules'
import { AgencyHooks } from '#agencies/hooks'

const fragment = (name: string) => async () => ({ openapi: { operations: {}, name } as any })

test.group('ModuleRegistry: the one way a module plugs in', () => {
  test('contributions come in module order; `before` places one earlier; the remover takes it away', async ({
    assert,
  }) => {
    const registry = new ModuleRegistry()
    registry.contribute('a', { openapi: fragment('a') })
    registry.contribute('b', { openapi: fragment('b'), start: async () => ({ steps: [] }) })
    const remove = registry.contribute('t', { openapi: fragment('t') }, { before: 'b' })
    assert.deepEqual(registry.modules(), ['a', 't', 'b'])
    assert.deepEqual(
      (await registry.contributions('openapi')).map((entry) => (entry.openapi as any).name),
      ['a', 't', 'b']
    )
    assert.lengthOf(await registry.contributions('start'), 1)
    remove()
    assert.deepEqual(registry.modules(), ['a', 'b'])
  })

  test("the app's providers contributed in adonisrc.ts order, and agencies' hooks come from it", async ({
    assert,
  }) => {
    const registry = await app.container.make(ModuleRegistry)
    assert.deepEqual(registry.modules(), [
      'core',
      'core.http',
      'catalog',
      'apps',
      'agencies',
      'listings',
      'leads',
      'buyers',
    ])
    const hooks = await app.container.make(AgencyHooks)
    const handovers = await hooks.operatorHandovers()
    assert.deepEqual(
      handovers.map((handover) => handover.constructor.name),
      ['ReassignOperator', 'ReassignOperator']
    )
    assert.lengthOf(await hooks.suspensionEffects(), 1)
    assert.isFunction((await hooks.planUsageSource()).usage)
  })
})
