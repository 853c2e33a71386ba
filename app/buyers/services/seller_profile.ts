/*
 * Who sells a listing, as a buyer sees it: the agency's commercial name and
 * its main branch. Read through the agencies' and catalogue's services.
 */
import { inject } from '@adonisjs/core'
import AgencyDirectory from '#agencies/services/agency_directory'
import AgencyService from '#agencies/services/agency_service'
import PlaceResolver from '#catalog/services/place_resolver'

export type SellerProfile = {
  name: string
  branch: {
    description: string
    address: string | null
    place: string | null
    phone: string | null
  } | null
}

@inject()
export default class SellerProfileReader {
  constructor(
    private agencies: AgencyDirectory,
    private agencyService: AgencyService,
    private places: PlaceResolver
  ) {}

  async execute(listing: { agencyId: number; appId: number }): Promise<SellerProfile> {
    const [admin, branches] = await Promise.all([
      this.agencies.admin(listing.agencyId),
      this.agencyService.branches(listing.agencyId),
    ])
    const agency = admin ? await this.agencies.forApp(listing.appId, admin.email) : null
    const main = branches[0]
    if (!main) return { name: agency?.tradeName ?? '', branch: null }
    const { regions, cities } = await this.places.names([
      { regionId: main.regionId, cityId: main.cityId },
    ])
    const place = [
      main.cityId && cities.get(main.cityId)?.name,
      main.regionId && regions.get(main.regionId)?.name,
    ]
      .filter((part, index, all): part is string => !!part && all.indexOf(part) === index)
      .join(', ')
    return {
      name: agency?.tradeName ?? '',
      branch: {
        description: main.description,
        address: main.address,
        place: place || null,
        phone: main.phone,
      },
    }
  }
}
