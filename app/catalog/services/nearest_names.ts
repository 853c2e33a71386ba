/*
 * The nearest names to an input that matched nothing (`S10` → `S-10`, `Gol
 * Trend` → `Gol`): compared without accents, case, spaces or punctuation, a
 * name the input starts with, or within a small edit distance. Bounded work:
 * at most MAX_NAMES names (the store's), each compared on its first 40
 * characters by a distance that gives up past the allowed edits.
 */
import { fold } from '#core/value_sets'

/** How many suggestions an answer names. */
export const MAX_SUGGESTIONS = 3
const MAX_LENGTH = 40

/** Letters and digits only, folded: `S-10` and `s 10` are both `s10`. */
const compact = (text: string) =>
  fold(text)
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .slice(0, MAX_LENGTH)

/**
 * Levenshtein distance of `a` and `b`, or `limit + 1` as soon as it must
 * exceed `limit` (each row's minimum only grows).
 */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      rowMin = Math.min(rowMin, current[j])
    }
    if (rowMin > limit) return limit + 1
    previous = current
  }
  return previous[b.length]
}

/** Up to MAX_SUGGESTIONS of `entries` nearest to `input`, nearest first; none when nothing is near. */
export function nearestNames<T extends { name: string }>(input: string, entries: T[]): T[] {
  const key = compact(input)
  const words = fold(input)
  if (key.length === 0) return []
  // One edit per three characters, at least one: `S10`/`S-10` are equal once compacted anyway.
  const limit = Math.max(1, Math.floor(key.length / 3))
  const scored: { entry: T; score: number }[] = []
  for (const entry of entries) {
    const name = compact(entry.name)
    if (name.length === 0) continue
    let score: number
    if (name === key) score = 0
    // The input is the name and more words ("Gol Trend" for "Gol").
    else if (words.startsWith(`${fold(entry.name)} `)) score = 1
    else {
      const distance = boundedDistance(key, name, limit)
      if (distance > limit) continue
      score = 1 + distance
    }
    scored.push({ entry, score })
  }
  return scored
    .sort((a, b) => a.score - b.score || a.entry.name.localeCompare(b.entry.name))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ entry }) => entry)
}
