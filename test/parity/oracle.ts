/**
 * The adjusted oracle. The reference (`reference-breaker` = dsh-repeat-tool-breaker
 * 0.5.2) is the oracle for everything the contract leaves to it, but the contract
 * decides some places differently (P1–P4, P8–P15). Each decision is encoded here as a
 * small source patch applied to a temporary copy of the reference at test setup;
 * every replacement asserts that it matched exactly once, so a different
 * reference version fails loudly instead of silently testing the wrong thing.
 * No session is ever skipped: the expected outcome is adjusted, not ignored.
 *
 * P5 (hostile inputs) and P6 (bounded memory) need no adjustment: the generator
 * produces ordinary arguments and results, on which both decide the same way.
 * P16 (issue 39: the ask in plain words, the opt-in tracks' summaries and the
 * log line by the tracks' names) needs none either: parity compares whether an
 * ask happened, never its words; the repeat and failure summaries it compares
 * keep 0.5.2's forms (P15's quotation), and the summaries P16 renames are the
 * opt-in tracks', which the reference has not; no log line is compared.
 * See docs/parity.md.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginModule } from '../support/fake-host.js';

export type Decision = 'P1' | 'P2' | 'P3' | 'P4' | 'P8' | 'P9' | 'P10' | 'P11' | 'P12' | 'P13' | 'P14' | 'P15' | 'P17';

export interface Adjustment {
  decision: Decision;
  /** File inside the reference package. */
  file: string;
  find: string;
  replace: string;
}

/**
 * The patches, one group per decision.
 *
 * P1 — contract §4.3. The reference's classifier never sees the command, so a curl
 *   `-w '%{http_code}'` whose output starts with a 4xx/5xx is a success there. The
 *   contract: such output is `{reason: 'http', detail: <code>}`, checked first in
 *   the shell text fallback. Encoded by passing `arguments.command` to
 *   `classifyFailure` and adding the write-out check at the top of the text fallback.
 * P2 — contract §3.7 Q2. The reference still fires warn/summarize for an exempted
 *   measure as its old window entries slide out. The contract: an exempted measure
 *   gets no advisory for the rest of the turn. Encoded by skipping exempt
 *   fingerprints when the occurrence stage is chosen (the failure track already
 *   skips them in `noteOutcome`).
 * P3 — contract §2.8. The reference keeps IPv6 brackets, so `[::1]` is public. The
 *   contract: the brackets are ignored for the locality test, so bracketed
 *   loopback, link-local and unique-local hosts are local. Encoded by testing the
 *   inside of a bracketed host.
 * P4 — contract §3.7 Q3. The reference commits a fingerprint that is both a failure
 *   hit and a repeat hit twice for one denied call. The contract: one call is one
 *   occurrence. Encoded by deduplicating what `commit` records.
 * P7 — contract §3.8 / §5: a summary within 120 characters. Since P15 the
 *   summary's fingerprint is a quotation of at most 60 characters, which keeps
 *   P7's bound by itself, so P7 has no patch of its own any more: P15's is it.
 * P8 — the product document: one prompt per measure per turn. In DSH's pool
 *   order the reference settles a declined ask only at post-execute, after the
 *   next call of the pool has passed policy, so that call is asked about again.
 *   The port: once the agent's next call reaches policy, an ask the guard never
 *   consumed was not approved. Encoded by remembering each agent's outstanding
 *   ask and settling it as declined at the start of the next call's ask and guard.
 * P9 — issue 26: volatile flags belong to their command. The reference strips
 *   curl's `-m`, `-s`, `-L`, `-A`, … from every command (`python -m pytest` and
 *   `python -m http.server` share one `cmd:`). The port strips them only in a
 *   segment whose command is curl (wget: its `--user-agent`). Encoded by tracking
 *   the command word of each segment (separated by a standalone `|`, `||`, `&&`,
 *   `;`, `&`) in `stripVolatileFlags`, skipped past as `firstVerb` skips.
 * P10 — issue 26: a URL in a here-document that `cat` or `tee` only writes out
 *   is no target. Encoded by removing such bodies from the text `extractUrls`
 *   reads (a body piped on, or fed to anything else, is kept), re-implemented here
 *   from the rule, not imported from the port. The command is read on the
 *   operator's line joined to the backslash-continued lines before it (issue 38).
 * P11 — issue 27: config errors fail loud. The reference passes an unknown key
 *   (`onlimit: deny`) through and ignores it. The port refuses it at load, and a
 *   `limits` key that names no measure. Encoded by the same two checks at the end
 *   of the reference's merge and in its `limits` loop (`pathAliases` stays
 *   accepted, as documented).
 * P12 — issue 31: a here-document that is a message is no target either: `cat`
 *   or `tee` writing into a `$(…)` or backticks that `git commit`/`tag`/`notes`/
 *   `merge`/`stash` or `gh pr`/`issue`/`release` takes as an argument, or one of
 *   those reading its message from standard input (`-F -`, `--file=-`,
 *   `--body-file -`). Encoded line by line with regular expressions over the
 *   text `extractUrls` reads, after P10's pass when both are on (each pass
 *   skips the bodies it keeps); written from the rule, not from the port's scan.
 *   A backslash-newline joins the lines it ends, wherever it stands (issue 38:
 *   `true && \⏎git commit …`, `git \⏎commit …`).
 * P13 — issue 32: the breaker's explanation on the rejected call itself. The
 *   reference lets the model read only the host's `Error: the user rejected
 *   tool "bash"` on the call the operator did not approve; its denial comes
 *   with the next call. Encoded by remembering what each ask put to the
 *   operator (forgotten when the guard takes the approval) and, in
 *   post-execute, adding the reference's own refused denial of those hits on
 *   the line after the host's text, through an `accept` decision's `content`.
 * P14 — issue 34: DSH's persistent shells (the minimal preset's `bash`, `pwsh`)
 *   write a time-out as a sentence opening the text and the shell's death as a
 *   `[shell killed by signal: S]` / `[shell exited: code N]` / `[shell exited]`
 *   line just before their reset notice; the reference reads neither. The port:
 *   the time-out is `{reason: 'timeout', detail: 'Ns'}` and a death `{reason:
 *   'shell', detail: 'signal S' | 'code N' | ''}`, read in the shell text
 *   fallback after the write-out status (P1) and before every marker. Encoded by
 *   the same two readings, written anew here as regexes, at that place of the
 *   reference's text fallback.
 * P15 — issue 35: model text in an operator's text is a bounded quotation. The
 *   reference's summaries carry the whole fingerprint. Encoded by rewriting the
 *   summary where a notice is made: the measure's name, then at most 60
 *   characters of the rest inside “ ”, newlines and control characters as
 *   escapes, cut with `…` — re-implemented here from the rule.
 * P17 — issue 39: one explanation per loop. The reference repeats the whole
 *   denial, hit lines and previous result, on every refused call. The port:
 *   a refusal each of whose hits (a track's, under a fingerprint) was refused
 *   before in the agent's turn says so in two lines, with no hit lines and no
 *   previous result; a human message starts the turn again. Encoded by wrapping
 *   the tracker's `commit` (every refusal, the guard's denial and a refused ask
 *   alike, commits its hits, and only a refusal commits any): a refusal whose
 *   hits were all committed before this turn marks its hit list, and
 *   `denyMessage` answers a marked list, the P13 explanation's included, with
 *   the short text.
 */
export const ADJUSTMENTS: readonly Adjustment[] = [
  {
    decision: 'P1',
    file: 'index.js',
    find: 'classifyFailure(result, { shell: isShell(name) })',
    replace: 'classifyFailure(result, { shell: isShell(name), command: parts(exec).args?.command })',
  },
  {
    decision: 'P1',
    file: 'lib/failure.js',
    find: 'return options.shell === true ? classifyFromText(result) : null',
    replace: 'return options.shell === true ? classifyFromText(result, options) : null',
  },
  {
    decision: 'P1',
    file: 'lib/failure.js',
    find: 'function classifyFromText(result) {',
    replace: 'function classifyFromText(result, options = {}) {',
  },
  {
    decision: 'P1',
    file: 'lib/failure.js',
    find: '  if (text.length === 0) return null\n',
    replace: [
      '  if (text.length === 0) return null',
      '  if (typeof options.command === "string" && /%\\{(?:http_code|response_code)\\}/.test(options.command)) {',
      '    const status = /^\\s*([45]\\d\\d)(?!\\d)/.exec(text)',
      '    if (status !== null) return { reason: "http", detail: status[1] }',
      '  }',
      '',
    ].join('\n'),
  },
  {
    decision: 'P14',
    file: 'lib/failure.js',
    find: '  const exit = /\\[exit code: (-?\\d+)\\]/.exec(text)\n',
    replace: String.raw`  const persistentTimeout = /^Your command timed out after (\d+) seconds or experienced an OOM error\. Below is partial output:/.exec(text)
  const capped = (detail) => (detail.length > 200 ? detail.slice(0, 200) + '\u2026' : detail)
  if (persistentTimeout !== null) return { reason: 'timeout', detail: capped(persistentTimeout[1] + 's') }
  const death = /(?:^|\n)(\[shell killed by signal: [^\]\n]+\]|\[shell exited: code -?\d+\]|\[shell exited\])\r?\nThe persistent (bash|pwsh) shell was reset; the next \2 call starts from the workspace with a fresh current directory and environment\./.exec(text)
  if (death !== null) {
    const line = death[1]
    return { reason: 'shell', detail: capped(line === '[shell exited]' ? '' : line.startsWith('[shell killed') ? 'signal ' + line.slice(25, -1) : 'code ' + line.slice(20, -1)) }
  }
  const exit = /\[exit code: (-?\d+)\]/.exec(text)
`,
  },
  {
    decision: 'P14',
    file: 'lib/failure.js',
    find: "    case 'curl':\n",
    replace: "    case 'shell':\n      return detail ? `the shell died under the command (${detail})` : 'the shell died under the command'\n    case 'curl':\n",
  },
  {
    decision: 'P2',
    file: 'index.js',
    find: '      if (!Number.isFinite(limitFor(fp, cfg.limits))) continue\n',
    replace: '      if (!Number.isFinite(limitFor(fp, cfg.limits))) continue\n      if (tracker.exemptSet(agent).has(fp)) continue\n',
  },
  {
    decision: 'P3',
    file: 'lib/normalize.js',
    find: "  if (typeof host !== 'string' || host.length === 0) return false\n",
    replace:
      "  if (typeof host !== 'string' || host.length === 0) return false\n" +
      "  if (host.length > 2 && host.startsWith('[') && host.endsWith(']')) return isLocalHost(host.slice(1, -1))\n",
  },
  {
    decision: 'P4',
    file: 'lib/window.js',
    find: 'const record = (hits.length > 0 ? hits.map((entry) => entry.fp) : fps).filter(',
    replace: 'const record = [...new Set(hits.length > 0 ? hits.map((entry) => entry.fp) : fps)].filter(',
  },
  {
    decision: 'P8',
    file: 'index.js',
    find: '  const deniedByUs = new WeakSet()\n',
    replace: [
      '  const deniedByUs = new WeakSet()',
      '  const outstanding = new WeakMap()',
      '  const settleEarlierAsk = (exec, agent) => {',
      '    const earlier = outstanding.get(agent)',
      '    if (earlier === undefined || earlier === exec) return',
      '    outstanding.delete(agent)',
      '    const asked = pendingAsk.get(earlier)',
      '    if (asked === undefined) return',
      '    deniedByUs.add(earlier)',
      '    pendingAsk.delete(earlier)',
      '    tracker.refuseFingerprints(agent, asked.hits.map((hit) => hit.fp))',
      '    tracker.commit(agent, asked.fps, asked.hits)',
      '  }',
      '',
    ].join('\n'),
  },
  {
    decision: 'P8',
    file: 'index.js',
    find: '    if (agent === null || !tracked(name)) return next()\n',
    replace: '    if (agent === null || !tracked(name)) return next()\n    settleEarlierAsk(exec, agent)\n',
  },
  {
    decision: 'P8',
    file: 'index.js',
    find: '    pendingAsk.set(exec, { fps, hits: blocking })\n',
    replace: '    pendingAsk.set(exec, { fps, hits: blocking })\n    outstanding.set(agent, exec)\n',
  },
  {
    decision: 'P8',
    file: 'index.js',
    find: '    if (agent === null || !tracked(name)) return undefined\n',
    replace: '    if (agent === null || !tracked(name)) return undefined\n    settleEarlierAsk(exec, agent)\n',
  },
  {
    decision: 'P9',
    file: 'lib/normalize.js',
    find: '  const kept = []\n  for (let i = start; i < tokens.length; i += 1) {\n    const token = tokens[i]\n',
    replace: String.raw`  const kept = []
  const ownerAt = (from) => {
    let i = from
    while (i < tokens.length) {
      const token = tokens[i]
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token)) { i += 1; continue }
      if (token === 'timeout') {
        i += 1
        while (i < tokens.length && tokens[i].startsWith('--')) i += 1
        if (i < tokens.length && /^\d+(?:\.\d+)?[smhd]?$/.test(tokens[i])) i += 1
        continue
      }
      if (PREFIX_WORDS.has(token)) {
        i += 1
        while (i < tokens.length && PREFIX_VALUE_OPTIONS.has(tokens[i])) i += 2
        while (i < tokens.length && tokens[i].startsWith('-')) i += 1
        continue
      }
      break
    }
    return tokens[i] === undefined ? '' : basename(tokens[i]).toLowerCase()
  }
  const owns = (owner, token) => owner === 'curl' || (owner === 'wget' && (token === '--user-agent' || token.startsWith('--user-agent=')))
  let owner = ownerAt(start)
  for (let i = start; i < tokens.length; i += 1) {
    const token = tokens[i]
    if (['|', '||', '&&', ';', '&'].includes(token)) {
      kept.push(token)
      owner = ownerAt(i + 1)
      continue
    }
    if (!owns(owner, token)) {
      kept.push(token)
      continue
    }
`,
  },
  {
    decision: 'P10',
    file: 'lib/fingerprints.js',
    find: '    const urls = extractUrls(command)\n',
    replace: '    const urls = extractUrls(writtenBodiesOut(command))\n',
  },
  {
    decision: 'P10',
    file: 'lib/fingerprints.js',
    find: "  stripVolatileFlags,\n} from './normalize.js'\n",
    replace: "  stripVolatileFlags,\n  tokenize,\n} from './normalize.js'\n",
  },
  {
    decision: 'P10',
    file: 'lib/fingerprints.js',
    find: 'export function fingerprints(',
    replace: String.raw`// P10: the bodies of here-documents that cat or tee only write out, taken away.
function writtenBodiesOut(command) {
  const lines = command.split('\n')
  const kept = []
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]
    kept.push(line)
    const match = /<<(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([^\s;|&<>()]+))(.*)$/.exec(line)
    if (match === null || line.includes('<<<')) continue
    const delimiter = (match[2] ?? match[3] ?? match[4]).replace(/\\/g, '')
    let end = i + 1
    while (end < lines.length && (match[1] === '-' ? lines[end].replace(/^\t+/, '') : lines[end]) !== delimiter) end += 1
    if (end >= lines.length) {
      kept.push(...lines.slice(i + 1))
      break
    }
    // The command line the operator ends, with its backslash-continued lines before it: a backslash-newline joins them.
    let first = i
    while (first > 0 && lines[first - 1].endsWith('\\')) first -= 1
    const before = tokenize([...lines.slice(first, i), line.slice(0, match.index)].join('\n').replace(/\\\n/g, ''))
    let from = 0
    before.forEach((word, at) => { if (['&&', '||', ';', '|', '&'].includes(word)) from = at + 1 })
    const writer = ['cat', 'tee'].includes(firstVerb(before.slice(from).join(' '))) && !match[5].includes('|')
    if (!writer) kept.push(...lines.slice(i + 1, end))
    i = end - 1
  }
  return kept.join('\n')
}

export function fingerprints(`,
  },
  {
    decision: 'P12',
    file: 'lib/fingerprints.js',
    find: '    const urls = extractUrls(',
    replace: '    const urls = extractUrlsOutsideMessages(',
  },
  {
    decision: 'P12',
    file: 'lib/fingerprints.js',
    find: 'export function fingerprints(',
    replace: String.raw`// P12: the bodies of here-documents that are messages, taken away.
import { tokenize as wordsOf } from './normalize.js'
const recordsText = (segment) => {
  const words = wordsOf(segment)
  const verb = firstVerb(segment)
  let i = words.findIndex((word) => word.split('/').pop().toLowerCase() === verb) + 1
  if (verb === 'gh') return ['pr', 'issue', 'release'].includes(words[i])
  if (verb !== 'git') return false
  while (i < words.length && words[i].startsWith('-')) i += words[i] === '-C' || words[i] === '-c' ? 2 : 1
  return ['commit', 'tag', 'notes', 'merge', 'stash'].includes(words[i])
}
const lastSegmentOf = (text) => text.split(/&&|\|\||[;|&\n]/).pop()
function messageBodiesOut(command) {
  const lines = command.split('\n')
  const kept = []
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]
    kept.push(line)
    const match = /<<(-?)[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([^\s;|&<>()]+))(.*)$/.exec(line)
    if (match === null || line.includes('<<<')) continue
    const delimiter = (match[2] ?? match[3] ?? match[4]).replace(/\\/g, '')
    let end = i + 1
    while (end < lines.length && (match[1] === '-' ? lines[end].replace(/^\t+/, '') : lines[end]) !== delimiter) end += 1
    if (end >= lines.length) {
      kept.push(...lines.slice(i + 1))
      break
    }
    // The command line the operator ends, with its backslash-continued lines before it: a backslash-newline joins them.
    let first = i
    while (first > 0 && lines[first - 1].endsWith('\\')) first -= 1
    const before = [...lines.slice(first, i), line.slice(0, match.index)].join('\n').replace(/\\\n/g, '')
    const own = lastSegmentOf(before)
    const fromInput = recordsText(own) && /(?:^|\s)(?:(?:-F|--file|--body-file|--notes-file)(?:\s+|=)-|-F-)(?:\s|$)/.test(own)
    const opened = /(?:\$\(|\x60)[ \t]*(?:cat|tee)(?:[ \t][^\x60()|;&]*)?$/.exec(before)
    const written = opened !== null && !match[5].includes('|') && recordsText(lastSegmentOf(before.slice(0, opened.index)))
    if (!fromInput && !written) kept.push(...lines.slice(i + 1, end))
    i = end - 1
  }
  return kept.join('\n')
}
const extractUrlsOutsideMessages = (text) => extractUrls(messageBodiesOut(text))

export function fingerprints(`,
  },
  {
    decision: 'P11',
    file: 'lib/defaults.js',
    find: "  for (const key of ['ignoreArgs', 'hostAliases', 'limits']) {\n",
    replace: [
      '  for (const key of Object.keys(config)) {',
      "    if (!Object.hasOwn(DEFAULTS, key) && key !== 'pathAliases') throw new Error(`repeat-tool-breaker: \\`${key}\\` is not a setting`)",
      '  }',
      "  for (const key of ['ignoreArgs', 'hostAliases', 'limits']) {",
      '',
    ].join('\n'),
  },
  {
    decision: 'P11',
    file: 'lib/defaults.js',
    find: '  for (const [key, value] of Object.entries(cfg.limits)) {\n',
    replace: [
      '  for (const [key, value] of Object.entries(cfg.limits)) {',
      "    if (!['exact', 'verb', 'family', 'cmd', 'act', 'net', 'site', 'host', 'sink'].includes(key.split(':')[0])) throw new Error(`repeat-tool-breaker: limit \"${key}\" names no measure`)",
      '',
    ].join('\n'),
  },
  {
    decision: 'P13',
    file: 'index.js',
    find: '  const deniedByUs = new WeakSet()\n',
    replace: '  const deniedByUs = new WeakSet()\n  const askedOf = new WeakMap()\n',
  },
  {
    decision: 'P13',
    file: 'index.js',
    find: '    pendingAsk.set(exec, { fps, hits: blocking })\n',
    replace: '    pendingAsk.set(exec, { fps, hits: blocking })\n    askedOf.set(exec, blocking)\n',
  },
  {
    decision: 'P13',
    file: 'index.js',
    find: '      pendingAsk.delete(exec)\n      tracker.exemptFingerprints(',
    replace: '      pendingAsk.delete(exec)\n      askedOf.delete(exec)\n      tracker.exemptFingerprints(',
  },
  {
    decision: 'P13',
    file: 'index.js',
    find: '    const downstream = await next()\n',
    replace: [
      '    let downstream = await next()',
      '    const refusedHits = askedOf.get(exec)',
      '    askedOf.delete(exec)',
      "    if (refusedHits !== undefined && downstream?.kind === 'accept' && !('content' in downstream) && !('value' in downstream)) {",
      '      const explanation = denyMessage({ name, hits: refusedHits, lastResult: tracker.slot(agent).lastResult, cfg, refused: true })',
      '      const blocks = Array.isArray(result?.content) ? [...result.content] : []',
      '      const last = blocks[blocks.length - 1]',
      "      if (last?.type === 'text' && typeof last.text === 'string') blocks[blocks.length - 1] = { type: 'text', text: last.text + '\\n' + explanation }",
      "      else blocks.push({ type: 'text', text: explanation })",
      '      downstream = { ...downstream, content: blocks }',
      '    }',
      '',
    ].join('\n'),
  },
  {
    decision: 'P15',
    file: 'index.js',
    find: 'function noticeMessage(text, summary) {\n',
    replace: String.raw`// P15: the fingerprint of a summary as an operator's quotation.
const P15_ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u201c': '\\u201c', '\u201d': '\\u201d' }
const P15_HIDDEN = /^[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]$/
function p15Quote(text) {
  let body = ''
  let cut = false
  for (const char of Array.from(text.slice(0, 400))) {
    const piece = P15_ESCAPES[char] ?? (P15_HIDDEN.test(char) ? '\\u' + char.charCodeAt(0).toString(16).padStart(4, '0') : char)
    if (body.length + piece.length > 60) { cut = true; break }
    body += piece
  }
  if (!cut && text.length > 400) cut = true
  return '\u201c' + body.replace(/<(\/?)(tool_call|function=)/g, '\u2039$1$2') + (cut ? '\u2026' : '') + '\u201d'
}
function p15Summary(summary) {
  const tail = /^([\s\S]*) (\u00d7 \d+|failed x\d+)$/.exec(summary)
  if (tail === null) return summary
  const measure = /^([a-z][a-z-]{0,15}):/.exec(tail[1])
  const label = measure === null ? p15Quote(tail[1]) : measure[1] + ' ' + p15Quote(tail[1].slice(measure[0].length))
  return label + ' ' + tail[2]
}
function noticeMessage(text, summary) {
  summary = p15Summary(summary)
`,
  },
  {
    decision: 'P17',
    file: 'lib/message.js',
    find: 'export function denyMessage({ name, hits, lastResult, cfg, refused }) {\n',
    replace: [
      '// P17: the hit lists of refusals that say nothing new this turn (marked by index.js).',
      'export const P17_LATER = new WeakSet()',
      'export function denyMessage({ name, hits, lastResult, cfg, refused }) {',
      "  if (P17_LATER.has(hits)) return `REPEAT_TOOL_BLOCKED: ${name || 'tool call'} call not run: a loop blocked before; the first denial says why.`",
      '',
    ].join('\n'),
  },
  {
    decision: 'P17',
    file: 'index.js',
    find: '  denyMessage,\n  failWarnMessage,\n',
    replace: '  denyMessage,\n  P17_LATER,\n  failWarnMessage,\n',
  },
  {
    decision: 'P17',
    file: 'index.js',
    find: '  const tracker = createTracker(cfg)\n',
    replace: String.raw`  const tracker = createTracker(cfg)
  // P17: what each agent's refusals this turn said, a track's hit under a fingerprint each.
  const p17Said = new WeakMap()
  const p17Commit = tracker.commit
  tracker.commit = (agent, fps, hits = []) => {
    if (hits.length > 0) {
      let said = p17Said.get(agent)
      if (said === undefined) p17Said.set(agent, (said = new Set()))
      const labels = hits.map((hit) => (hit.kind === 'failure' ? 'failure ' : 'repeat ') + hit.fp)
      if (labels.every((label) => said.has(label))) P17_LATER.add(hits)
      for (const label of labels) said.add(label)
    }
    return p17Commit(agent, fps, hits)
  }
  const p17Reset = tracker.reset
  tracker.reset = (agent) => {
    p17Said.delete(agent)
    return p17Reset(agent)
  }
`,
  },
];

export const DECISIONS: readonly Decision[] = ['P1', 'P2', 'P3', 'P4', 'P8', 'P9', 'P10', 'P11', 'P12', 'P13', 'P14', 'P15', 'P17'];

/**
 * Host facts, applied to every oracle copy (they are not contract decisions, so the
 * self-check does not toggle them).
 *
 * error.info.code — issue 2 and the real host (`@deepseek-ai/dsh-tools` puts a thrown
 *   tool error's code at `error.info.code`, and its name at `error.info.name`). The
 *   reference reads only `error.code ?? error.name`, so its failure detail is empty
 *   for every real thrown error. Encoded by reading the `info` spellings as fallbacks,
 *   in the port's order: code, info.code, name, info.name.
 */
export const HOST_FACTS: readonly Omit<Adjustment, 'decision'>[] = [
  {
    file: 'lib/failure.js',
    find: 'const code = result.error?.code ?? result.error?.name',
    replace: 'const code = result.error?.code ?? result.error?.info?.code ?? result.error?.name ?? result.error?.info?.name',
  },
];

const require = createRequire(import.meta.url);

/** The installed reference package directory. */
export function referenceDir(): string {
  return dirname(require.resolve('reference-breaker/package.json'));
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

const copies: string[] = [];
process.once('exit', () => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/**
 * Load a copy of the reference with the given decisions applied (all of them by
 * default). Every call makes a fresh copy, hence a fresh module instance.
 */
export async function loadOracle(decisions: readonly Decision[] = DECISIONS): Promise<PluginModule> {
  const module = await import(pathToFileURL(join(patchedReference(decisions), 'index.js')).href);
  return module.default as PluginModule;
}

/** One module of a fresh adjusted copy, e.g. `lib/failure.js` for the classifier alone. */
export async function loadOracleModule<T>(file: string, decisions: readonly Decision[] = DECISIONS): Promise<T> {
  return (await import(pathToFileURL(join(patchedReference(decisions), file)).href)) as T;
}

/** A temporary copy of the reference with the decisions and host facts applied; removed at exit. */
function patchedReference(decisions: readonly Decision[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'parity-oracle-'));
  copies.push(dir);
  cpSync(referenceDir(), dir, { recursive: true });
  const chosen = [...ADJUSTMENTS.filter((adjustment) => decisions.includes(adjustment.decision)), ...HOST_FACTS.map((fact) => ({ ...fact, decision: 'host fact' }))];
  for (const adjustment of chosen) {
    const path = join(dir, adjustment.file);
    const source = readFileSync(path, 'utf8');
    const found = countOf(source, adjustment.find);
    if (found !== 1) {
      throw new Error(`oracle adjustment ${adjustment.decision} expected exactly one match in ${adjustment.file}, found ${found}: ${adjustment.find}`);
    }
    writeFileSync(path, source.replace(adjustment.find, () => adjustment.replace));
  }
  return dir;
}

/** The unpatched reference, as installed. */
export async function loadReference(): Promise<PluginModule> {
  const specifier = 'reference-breaker';
  const module = await import(specifier);
  return module.default as PluginModule;
}
