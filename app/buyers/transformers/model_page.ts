/*
 * What a catalogue model page shows: the model, its versions (those on the
 * new-vehicle market, else the recent ones) and the regions to choose from.
 */
import type { ModelRef, VersionRef } from '#catalog/services/vehicle_resolver'
import type { RegionRef } from '#catalog/services/place_resolver'
import { settings } from '#core/settings'

export function modelPage(model: ModelRef, versions: VersionRef[], regions: RegionRef[]) {
  const heading = `${model.brandName} ${model.name}`
  const canonical = `${settings.publicUrl}/modelos/${model.id}`
  const summary = `${heading}: ${versions.length} ${versions.length === 1 ? 'versión' : 'versiones'} con sus datos técnicos. Consultá precio y disponibilidad a una agencia de tu provincia.`
  return {
    id: model.id,
    heading,
    title: `${heading} 0 km — versiones y consultas`,
    subtitle: model.bodyTypes.length ? model.bodyTypes.join(' · ') : 'Catálogo de modelos',
    summary,
    canonical,
    versions: versions.map((version) => ({
      id: version.id,
      name: version.name,
      year: version.year ? String(version.year) : '—',
      propulsion: version.propulsion ?? '—',
      transmission: version.transmission ?? '—',
      power: version.power ? `${version.power} CV` : '—',
      bodyType: version.bodyType ?? '—',
    })),
    versionOptions: versions.map((version) => ({
      value: version.id,
      label: `${version.name}${version.year ? ` (${version.year})` : ''}`,
    })),
    regionOptions: regions.map((region) => ({ value: region.id, label: region.name })),
    og: {
      type: 'website',
      title: heading,
      description: summary,
      url: canonical,
      image: null,
      imageAlt: null,
    },
  }
}

export type ModelPageView = ReturnType<typeof modelPage>
