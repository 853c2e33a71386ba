import { execFileSync } from 'node:child_process'

const DTD = new URL('../../app/leads/adf/adf-1.0.dtd', import.meta.url).pathname

/** xmllint --dtdvalid on the document (read from stdin): throws with its output when it is not valid ADF 1.0. */
export function assertValidAdf(xml: string) {
  execFileSync('/usr/bin/xmllint', ['--noout', '--dtdvalid', DTD, '-'], {
    input: xml,
    stdio: 'pipe',
  })
}
