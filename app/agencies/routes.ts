/*
 * Agencies module routes: agencies and invitations, products (plan),
 * operators, branches, and the invited person's registration page.
 */
import router from '@adonisjs/core/services/router'
import { apiRoutes } from '#core/http/api'

const AgenciesController = () => import('#agencies/controllers/agencies_controller')
const ProductsController = () => import('#agencies/controllers/products_controller')
const OperatorsController = () => import('#agencies/controllers/operators_controller')
const BranchesController = () => import('#agencies/controllers/branches_controller')
const RegistrationController = () => import('#agencies/controllers/registration_controller')

apiRoutes(() => {
  router.get('/agencias', [AgenciesController, 'index']).as('agencies.index')
  router.post('/agencias', [AgenciesController, 'store']).as('agencies.store')
  router.get('/agencias/:adminmail', [AgenciesController, 'show']).as('agencies.show')
  router
    .route('/agencias/:adminmail', ['OPTIONS'], [AgenciesController, 'show'])
    .as('agencies.status')
  router.put('/agencias/:adminmail', [AgenciesController, 'update']).as('agencies.update')

  router.get('/productos/:adminmail', [ProductsController, 'show']).as('agencies.products')

  router.get('/operadores', [OperatorsController, 'find']).as('operators.find')
  router.get('/operadores/:adminmail', [OperatorsController, 'index']).as('operators.index')
  router.post('/operadores/:adminmail', [OperatorsController, 'store']).as('operators.store')
  router.put('/operadores/:adminmail', [OperatorsController, 'update']).as('operators.update')
  router
    .patch('/operadores/:adminmail/desasociar', [OperatorsController, 'detach'])
    .as('operators.detach')

  router.get('/sucursales/:adminmail', [BranchesController, 'index']).as('branches.index')
  router.post('/sucursales/:adminmail', [BranchesController, 'store']).as('branches.store')
  router.get('/sucursales/:adminmail/:id', [BranchesController, 'show']).as('branches.show')
  router.put('/sucursales/:adminmail/:id', [BranchesController, 'update']).as('branches.update')
})

router.get('/registro/:token', [RegistrationController, 'show']).as('registration.show')
router.post('/registro/:token', [RegistrationController, 'store']).as('registration.store')
