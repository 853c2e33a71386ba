/*
 * Agencies for tests of other modules: created directly through the agencies
 * services (no HTTP, no invitation), with unique defaults.
 */
import app from '@adonisjs/core/services/app'
import UnitOfWork from '#core/database/unit_of_work'
import GrantAgency from '#agencies/services/grant_agency'
import SetSuspension from '#agencies/services/set_suspension'
import CreateAgency from '#agencies/services/create_agency'
import AddCollaborator from '#agencies/services/add_collaborator'
import AgencyDirectory, {
  type AgencyView,
  type OperatorView,
} from '#agencies/services/agency_directory'

export type AgencyFixture = {
  agency: AgencyView
  admin: OperatorView
  collaborators: OperatorView[]
}

export type AgencyOptions = {
  adminMail?: string
  tradeName?: string
  /** E-mails, or objects with names and phones. */
  collaborators?: Array<
    string | { email: string; firstName?: string; lastName?: string; phones?: string[] }
  >
  /** Named like `agency:plan`'s flags. */
  plan?: { capacity?: number; alta?: number; media?: number; baja?: number }
  receivesOtherLeads?: boolean
  adminPhones?: string[]
}

let counter = 0

/** A unique, valid e-mail for a test. */
export function uniqueEmail(prefix = 'user') {
  counter += 1
  return `${prefix}.${Date.now().toString(36)}${process.pid}${counter}@example.com`
}

export async function createAgency(
  caller: { id: number },
  options: AgencyOptions = {}
): Promise<AgencyFixture> {
  const adminMail = options.adminMail ?? uniqueEmail('admin')
  const [directory, unitOfWork, createAgencyAction, addCollaborator] = await Promise.all([
    app.container.make(AgencyDirectory),
    app.container.make(UnitOfWork),
    app.container.make(CreateAgency),
    app.container.make(AddCollaborator),
  ])
  const agencyId = await unitOfWork.run(async (tx) => {
    const created = await createAgencyAction.execute(
      {
        appId: caller.id,
        adminEmail: adminMail,
        tradeName: options.tradeName ?? `Agencia ${adminMail.split('@')[0]}`,
        admin: {
          firstName: 'Ana',
          lastName: 'Administradora',
          phones: options.adminPhones ?? ['+5491155550000', '011 4555-0000'],
          createdViaApi: true,
        },
        mainBranch: { address: 'Av. Siempreviva 742', phone: '011 4555-0000' },
        plan: {
          capacity: options.plan?.capacity,
          quotas: {
            ...(options.plan?.alta !== undefined && { high: options.plan.alta }),
            ...(options.plan?.media !== undefined && { medium: options.plan.media }),
            ...(options.plan?.baja !== undefined && { low: options.plan.baja }),
          },
        },
        receivesOtherLeads: options.receivesOtherLeads ?? false,
      },
      tx
    )
    if (!created.ok) throw new Error(`createAgency: ${adminMail} is already known`)
    for (const [index, entry] of (options.collaborators ?? []).entries()) {
      const input = typeof entry === 'string' ? { email: entry } : entry
      const added = await addCollaborator.within(
        created.value.agency.id,
        {
          email: input.email,
          firstName: input.firstName ?? 'Colaborador',
          lastName: input.lastName ?? `Número ${index + 1}`,
          phones: input.phones ?? [`011 4555-${String(1000 + index)}`],
        },
        tx
      )
      if (!added.ok) throw new Error(`createAgency: collaborator ${input.email}: ${added.reason}`)
    }
    return created.value.agency.id
  })
  const agency = (await directory.forApp(caller.id, adminMail))!
  const members = await directory.members(agencyId)
  return {
    agency,
    admin: members.find((member) => member.isAdmin)!,
    collaborators: members.filter((member) => !member.isAdmin),
  }
}

/** Links an existing agency to another app (what `agency:grant` does). */
export async function grantAgency(
  caller: { id: number },
  adminMail: string,
  receivesOtherLeads = false
) {
  const grant = await app.container.make(GrantAgency)
  const granted = await grant.execute(adminMail, caller.id, receivesOtherLeads)
  if (!granted.ok) throw new Error(`grantAgency: ${granted.reason}`)
}

/** Suspends (or reinstates) an agency, as `agency:suspend` does. */
export async function suspendAgency(adminMail: string, suspended = true) {
  await (await app.container.make(SetSuspension)).agency(adminMail, suspended)
}

/** Suspends (or reinstates) one person, as `agency:suspend --operator` does. */
export async function suspendOperator(email: string, suspended = true) {
  await (await app.container.make(SetSuspension)).operator(email, suspended)
}
