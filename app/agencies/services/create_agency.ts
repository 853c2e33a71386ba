/*
 * Creates an agency with everything it needs to operate, in the caller's
 * transaction: the administrator, the main branch, the plan and the link to
 * the app that brought it. Used by registration and the test helper alike.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'
import type Agency from '#agencies/models/agency'
import type Operator from '#agencies/models/operator'
import type Branch from '#agencies/models/branch'
import AgencyStore from '#agencies/stores/agency_store'
import OperatorStore from '#agencies/stores/operator_store'
import BranchStore from '#agencies/stores/branch_store'
import PlanStore, { DEFAULT_PLAN, type PlanView, type Quotas } from '#agencies/stores/plan_store'
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
  /** Overrides of the default plan. */
  plan?: { capacity?: number; quotas?: Partial<Quotas> }
  receivesOtherLeads?: boolean
}

export type CreatedAgency = { agency: Agency; admin: Operator; branch: Branch; plan: PlanView }

@inject()
export default class CreateAgency {
  constructor(
    private agencies: AgencyStore,
    private operators: OperatorStore,
    private branches: BranchStore,
    private plans: PlanStore
  ) {}

  async execute(input: NewAgency, tx: Tx): Promise<Result<CreatedAgency, 'email_known'>> {
    const email = normalizeEmail(input.adminEmail)
    if (await this.agencies.emailKnown(email, tx)) return fail('email_known')

    const agency = await this.agencies.create({ adminEmail: email, tradeName: input.tradeName }, tx)
    const admin = await this.operators.create(
      {
        email,
        firstName: input.admin.firstName ?? '',
        lastName: input.admin.lastName ?? '',
        ...splitPhones(input.admin.phones ?? []),
        regionId: input.admin.regionId ?? input.mainBranch?.regionId ?? null,
        cityId: input.admin.cityId ?? input.mainBranch?.cityId ?? null,
        address: input.admin.address ?? input.mainBranch?.address ?? null,
        passwordHash: input.admin.passwordHash ?? null,
        createdViaApi: input.admin.createdViaApi ?? true,
      },
      tx
    )
    await this.operators.addMember(agency.id, admin.id, true, tx)
    const branch = await this.branches.create(
      agency.id,
      {
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
      tx
    )
    const plan: PlanView = {
      capacity: input.plan?.capacity ?? DEFAULT_PLAN.capacity,
      quotas: { ...DEFAULT_PLAN.quotas, ...input.plan?.quotas },
    }
    await this.plans.create(agency.id, plan, tx)
    await this.agencies.addLink(input.appId, agency.id, input.receivesOtherLeads ?? false, tx)
    return ok({ agency, admin, branch, plan })
  }
}
