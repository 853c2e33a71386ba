/*
 * The README's request examples, as a reader would run them in a shell
 * (tests/functional/core/readme_examples.spec.ts runs them).
 *
 * An example is a line of a fenced ```sh block that starts with `curl`
 * (continuation lines ending in `\` joined, a `<<'EOF'` heredoc read as its
 * stdin). A trailing comment that starts with a status (`# 304 Not Modified`)
 * is the status the example answers; without one it answers a 2xx. A line that
 * is one `NAME=value` assignment sets a shell variable the examples use
 * (`TOKEN=dla_MQ.…`); what the value stands for is the test's to decide.
 * Every other line (npm, node, comments) is not an example.
 */

export type Statement =
  | {
      kind: 'curl'
      /** 1-based line of the README where the command starts. */
      line: number
      /** The command with its continuations joined (comment and heredoc body excluded). */
      command: string
      /** The status the README says it answers, when it says one. */
      status?: number
      /** The trailing comment, when there is one. */
      comment?: string
      stdin?: string
    }
  | { kind: 'assign'; line: number; name: string; value: string }

/** The examples and assignments of every ```sh block of `markdown`, in order. */
export function extractExamples(markdown: string): Statement[] {
  const lines = markdown.split('\n')
  const statements: Statement[] = []
  let inSh = false
  for (let index = 0; index < lines.length; index++) {
    const fence = /^\s*```(\S*)/.exec(lines[index])
    if (fence) {
      inSh = !inSh && fence[1] === 'sh'
      continue
    }
    if (!inSh) continue
    const start = index
    let text = lines[index]
    while (/\\\s*$/.test(text) && index + 1 < lines.length) {
      text = text.replace(/\\\s*$/, ' ') + lines[++index].trim()
    }
    if (!/^\s*(curl\s|[A-Z_][A-Z0-9_]*=\S*\s*(#.*)?$)/.test(text)) continue
    const words = shellWords(text.trim())
    if (words.words.length === 0) continue
    if (words.words[0] === 'curl') {
      let stdin: string | undefined
      if (words.heredoc) {
        const body: string[] = []
        while (index + 1 < lines.length && lines[index + 1].trim() !== words.heredoc) {
          body.push(lines[++index])
        }
        index++ // the terminator
        stdin = body.join('\n') + '\n'
      }
      const status = /^\s*(\d{3})\b/.exec(words.comment ?? '')
      statements.push({
        kind: 'curl',
        line: start + 1,
        command: text.trim(),
        ...(status ? { status: Number(status[1]) } : {}),
        ...(words.comment ? { comment: words.comment } : {}),
        ...(stdin !== undefined ? { stdin } : {}),
      })
      continue
    }
    const assignment = /^([A-Z_][A-Z0-9_]*)=([\s\S]*)$/.exec(words.words[0])
    if (assignment && words.words.length === 1) {
      statements.push({
        kind: 'assign',
        line: start + 1,
        name: assignment[1],
        value: assignment[2],
      })
    }
  }
  return statements
}

/**
 * Splits a shell line into words as sh would (quotes removed), with its
 * trailing comment and the terminator of a heredoc (`<<'EOF'`), if any.
 * `$NAME` / `${NAME}` are expanded through `lookup` outside single quotes
 * (without one they are kept as written).
 */
export function shellWords(line: string, lookup?: (name: string) => string) {
  const words: string[] = []
  let comment: string | undefined
  let heredoc: string | undefined
  let word: string | null = null
  const expand = (at: number): [string, number] => {
    const match = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(line.slice(at))
    if (!match) return ['$', at + 1]
    const name = match[1] ?? match[2]
    return [lookup ? lookup(name) : match[0], at + match[0].length]
  }
  let at = 0
  while (at < line.length) {
    const char = line[at]
    if (/\s/.test(char)) {
      if (word !== null) words.push(word)
      word = null
      at++
    } else if (char === '#' && word === null) {
      comment = line.slice(at + 1).trim()
      break
    } else if (line.startsWith('<<', at) && word === null) {
      const match = /^<<-?\s*(['"]?)(\w+)\1/.exec(line.slice(at))
      if (!match) throw new Error(`unsupported redirection in: ${line}`)
      heredoc = match[2]
      at += match[0].length
    } else if ('|;&<>`'.includes(char) && word === null) {
      throw new Error(`only single commands are examples, not: ${line}`)
    } else if (char === "'") {
      const end = line.indexOf("'", at + 1)
      if (end < 0) throw new Error(`unterminated ' in: ${line}`)
      word = (word ?? '') + line.slice(at + 1, end)
      at = end + 1
    } else if (char === '"') {
      word ??= ''
      at++
      while (at < line.length && line[at] !== '"') {
        if (line[at] === '\\' && '"\\$`'.includes(line[at + 1] ?? '')) {
          word += line[at + 1]
          at += 2
        } else if (line[at] === '$') {
          const [value, next] = expand(at)
          word += value
          at = next
        } else word += line[at++]
      }
      if (at >= line.length) throw new Error(`unterminated " in: ${line}`)
      at++
    } else if (char === '\\') {
      word = (word ?? '') + (line[at + 1] ?? '')
      at += 2
    } else if (char === '$') {
      const [value, next] = expand(at)
      word = (word ?? '') + value
      at = next
    } else {
      word = (word ?? '') + char
      at++
    }
  }
  if (word !== null) words.push(word)
  return { words, comment, heredoc }
}

export type CurlRequest = {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** -L: follow redirects (curl does not by default). */
  follow: boolean
}

const DATA = new Set(['-d', '--data', '--data-binary', '--data-raw', '--data-ascii', '--json'])
const IGNORED = new Set(['-i', '--include', '-s', '--silent', '-S', '--show-error', '-v', '-sS'])

/** The request a curl command (its words, `curl` first) sends; unknown options throw. */
export function curlRequest(words: string[], stdin?: string): CurlRequest {
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${words.join(' ')}`)
  let method: string | undefined
  let url: string | undefined
  let head = false
  let follow = false
  const headers: Record<string, string> = {}
  const data: string[] = []
  let json = false
  for (let index = 1; index < words.length; index++) {
    const word = words[index]
    const next = () => {
      const value = words[++index]
      if (value === undefined) throw new Error(`${word} needs a value`)
      return value
    }
    if (word === '-X' || word === '--request') method = next()
    else if (word === '-H' || word === '--header') {
      const header = next()
      const colon = header.indexOf(':')
      if (colon < 1) throw new Error(`malformed header: ${header}`)
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim()
    } else if (DATA.has(word)) {
      let value = next()
      if (word === '--json') json = true
      if (value.startsWith('@') && word !== '--data-raw') {
        if (value !== '@-' || stdin === undefined) throw new Error(`unsupported data: ${value}`)
        value = word === '--data-binary' ? stdin : stdin.replace(/\r?\n/g, '')
      }
      data.push(value)
    } else if (word === '-I' || word === '--head') head = true
    else if (word === '-L' || word === '--location') follow = true
    else if (IGNORED.has(word)) continue
    else if (word.startsWith('-')) throw new Error(`unsupported curl option: ${word}`)
    else if (url === undefined) url = word
    else throw new Error(`a second URL: ${word}`)
  }
  if (!url) throw new Error(`no URL in: ${words.join(' ')}`)
  const body = data.length > 0 ? data.join('&') : undefined
  if (body !== undefined) {
    if (json) {
      headers['content-type'] ??= 'application/json'
      headers['accept'] ??= 'application/json'
    }
    headers['content-type'] ??= 'application/x-www-form-urlencoded'
  }
  return {
    method: (method ?? (head ? 'HEAD' : body !== undefined ? 'POST' : 'GET')).toUpperCase(),
    url,
    headers,
    ...(body !== undefined ? { body } : {}),
    follow,
  }
}
