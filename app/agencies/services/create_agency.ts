/*
 * Creates an agency with everything it needs to operate, in the caller's
 * transaction: the administrator, the main branch, the plan and the link to
 * the app that brought it. Used by registration, `agency:grant`-less support
 * paths and the test helper alike.
 */
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { fail, ok, type Result } from '#core/result'
import Agency from '#agencies/models/agency'
import Operator from '#agencies/models/operator'
import Membership from '#agencies/models/membership'
import Branch from '#agencies/models/branch'
import Plan from '#agencies/models/plan'
import AppAgency from '#agencies/models/app_agency'
import { normalizeEmail } from './emails.js'
import { splitPhones } from './phones.js'

export type NewAgency = {
  appId: number
  adminEmail: string
  tradeName: string
  admin: {
    firstName?: string | null
    lastName?: string | null
    phones?: string[]
    passwordHash?: string | null
    createdViaApi?: boolean
    regionId?: number | null
    cityId?: number | null
    address?: string | null
  }
  mainBranch?: {
    regionId?: number | null
    cityId?: number | null
    address?: string | null
    phone?: string | null
    phoneIsWhatsapp?: boolean
  }
  plan?: Partial<typeof Plan.DEFAULT>
  receivesOtherLeads?: boolean
}

export type CreatedAgency = { agency: Agency; admin: Operator; branch: Branch; plan: Plan }

export default class CreateAgency {
  async execute(
    input: NewAgency,
    trx: TransactionClientContract
  ): Promise<Result<CreatedAgency, 'email_known'>> {
    const email = normalizeEmail(input.adminEmail)
    if (await emailKnown(email, trx)) return fail('email_known')

    const agency = await Agency.create(
      { adminEmail: email, tradeName: input.tradeName, suspended: false },
      { client: trx }
    )
    const phones = splitPhones(input.admin.phones ?? [])
    const admin = await Operator.create(
      {
        email,
        firstName: input.admin.firstName ?? '',
        lastName: input.admin.lastName ?? '',
        ...phones,
        regionId: input.admin.regionId ?? input.mainBranch?.regionId ?? null,
        cityId: input.admin.cityId ?? input.mainBranch?.cityId ?? null,
        address: input.admin.address ?? input.mainBranch?.address ?? null,
        passwordHash: input.admin.passwordHash ?? null,
        createdViaApi: input.admin.createdViaApi ?? true,
        suspended: false,
      },
      { client: trx }
    )
    await Membership.create(
      { agencyId: agency.id, operatorId: admin.id, isAdmin: true },
      { client: trx }
    )
    const branch = await Branch.create(
      {
        agencyId: agency.id,
        isMain: true,
        description: 'Casa central',
        email,
        phone: input.mainBranch?.phone ?? null,
        phoneIsWhatsapp: input.mainBranch?.phoneIsWhatsapp ?? false,
        regionId: input.mainBranch?.regionId ?? null,
        cityId: input.mainBranch?.cityId ?? null,
        address: input.mainBranch?.address ?? null,
        sales: true,
        workshop: false,
        parts: false,
      },
      { client: trx }
    )
    const plan = await Plan.create(
      { agencyId: agency.id, ...Plan.DEFAULT, ...input.plan },
      { client: trx }
    )
    await AppAgency.create(
      {
        appId: input.appId,
        agencyId: agency.id,
        receivesOtherLeads: input.receivesOtherLeads ?? false,
      },
      { client: trx }
    )
    return ok({ agency, admin, branch, plan })
  }
}

/** Whether an e-mail already belongs to an operator or an agency of the service. */
export async function emailKnown(email: string, client: QueryClientContract = db.connection()) {
  const normalized = normalizeEmail(email)
  const [operator, agency] = await Promise.all([
    client.from('operators').where('email', normalized).select('id').first(),
    client.from('agencies').where('admin_email', normalized).select('id').first(),
  ])
  return Boolean(operator || agency)
}
