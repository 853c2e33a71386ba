/*
 * A listing's strong ETag is its id and revision (docs/design.md §4): cheap to
 * compute, and comparable inside the UPDATE that bumps the revision.
 */
export function listingEtag(listing: { id: number; revision: number }) {
  return `"${listing.id}.${listing.revision}"`
}

/**
 * The revision an If-Match demands of this listing: undefined when no
 * If-Match was sent or it holds `*`, else the revision of the tag naming this
 * listing, or -1 (matches nothing) when none does. Weak tags never match.
 */
export function expectedRevision(
  tags: string[] | undefined,
  listingId: number
): number | undefined {
  if (!tags || tags.includes('*')) return undefined
  for (const tag of tags) {
    const match = /^"(\d+)\.(\d+)"$/.exec(tag)
    if (match && Number(match[1]) === listingId) return Number(match[2])
  }
  return -1
}
