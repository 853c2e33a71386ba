/*
 * A failed best match → 400 (docs/spec.md §4.7, docs/design.md §24): `Errors`
 * keyed by the parameters that failed — only ones the caller sent — and, to
 * choose from, `Extensions.Candidatos` (an ambiguity's entries) or
 * `Extensions.Sugerencias` (the nearest names to what matched nothing).
 */
import { Problem } from '#core/http/problem'
import { PROPULSIONS, TRANSMISSIONS } from '#core/value_sets'
import type { MatchIssue as VehicleIssue } from '#catalog/services/match_vehicle'
import { candidato } from '#catalog/transformers/vehicle_transformer'

/** A vehicle match's issue, or a place's (`region`). */
type MatchIssue = Omit<VehicleIssue, 'param'> & { param: string }

const quoted = (issue: MatchIssue, which: 'candidates' | 'suggestions') =>
  (issue[which] ?? []).map(({ name }) => `«${name}»`).join(', ')

const MESSAGES: Record<MatchIssue['issue'], (param: string, issue: MatchIssue) => string> = {
  not_found: (param, issue) =>
    `No hay coincidencias en el catálogo para ${param}.` +
    (issue.suggestions?.length ? ` ¿Quiso decir ${quoted(issue, 'suggestions')}?` : ''),
  ambiguous: (param, issue) =>
    `El valor de ${param} coincide con más de una entrada del catálogo` +
    (issue.candidates?.length ? ` (${quoted(issue, 'candidates')})` : '') +
    '; indique el nombre completo o el href de una de Extensions.Candidatos.',
  versions_ambiguous: (_param, issue) =>
    `Más de una versión de este modelo cumple lo enviado` +
    (issue.candidates?.length ? ` (${quoted(issue, 'candidates')})` : '') +
    '; indique la versión (su nombre o el href de una de Extensions.Candidatos).',
  no_versions: () => 'Ninguna versión de este modelo cumple lo enviado.',
  unknown_value: (param) =>
    `Valores posibles: ${(param === 'propulsion' ? PROPULSIONS : TRANSMISSIONS).join(', ')}.`,
}

/** 400 with each failed parameter in `Errors`, and the entries to choose from in `Extensions`. */
export function matchProblem(issues: MatchIssue[]) {
  const candidates = issues.flatMap((issue) => issue.candidates ?? [])
  const suggestions = issues.flatMap((issue) => issue.suggestions ?? [])
  const problem = Problem.badRequest(
    Object.fromEntries(
      issues.map((issue) => [issue.param, [MESSAGES[issue.issue](issue.param, issue)]])
    )
  )
  return new Problem(400, {
    ...problem.options,
    extensions: {
      ...(candidates.length ? { Candidatos: candidates.map(candidato) } : {}),
      ...(suggestions.length ? { Sugerencias: suggestions.map(candidato) } : {}),
    },
  })
}
