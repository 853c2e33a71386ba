import { inject } from '@adonisjs/core'
import BrandDirectory from '#catalog/services/brand_directory'
import VersionDirectory from '#catalog/services/version_directory'
import PlaceDirectory from '#catalog/services/place_directory'
import { modelPage, type ModelPageView } from '#buyers/transformers/model_page'

/** What the model page shows, from the catalogue. */
@inject()
export default class ModelPageSource {
  constructor(
    private brands: BrandDirectory,
    private versions: VersionDirectory,
    private places: PlaceDirectory
  ) {}

  async page(id: number): Promise<ModelPageView | null> {
    const model = await this.brands.model(id)
    if (!model) return null
    // Versions on the new-vehicle market; a model that left it shows its last years.
    let versions = await this.versions.versions({ modelId: id })
    if (versions.length === 0)
      versions = await this.versions.versions({ modelId: id, year: new Date().getFullYear() })
    return modelPage(model, versions, await this.places.regions())
  }
}
