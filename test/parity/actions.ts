/**
 * The calls an agent makes. An *action* is one thing the model keeps doing (fetch
 * this page, run the tests, read this file at that offset). Each time it is drawn
 * it is spelled again with cosmetic variation the plugin must see through (decoy
 * arguments, `--max-time`, `-sSL`, `timeout N`, host spellings, tracking
 * parameters) and, for some actions, a real change the plugin must NOT see
 * through (the next page, a different offset). Over those, words from the
 * tables port and reference key on (vocabulary.ts) are laid from the side
 * stream: every volatile flag, wrapper, decoy key, alias, sink, tracking key,
 * local range, shell and verb of either side is drawn, so an entry dropped on
 * one side decides differently.
 */
import type { Rng } from '../support/prng.js';
import { exampleOf } from '../support/regex-examples.js';
import { localishHost, trackingKey, VOCABULARY, volatileWord, wrapperWords } from '../support/vocabulary.js';
import { side, sideRandom } from './side-stream.js';
import type { ResultFamily } from './results.js';

export interface Drawn {
  name: string;
  arguments: unknown;
  family: ResultFamily;
}

export interface Action {
  /** Spell the action once more. `n` counts the draws of this action so far. */
  draw(rng: Rng, n: number): Drawn;
  /** Probability that one run of it fails. */
  failRate: number;
}

/** Host spellings of one target: every entry normalizes to the same host (bar aliases the config may add). */
const PUBLIC_HOSTS: readonly (readonly string[])[] = [
  ['open.canada.ca', 'open-data.canada.ca', 'www.open.canada.ca', 'OPEN.canada.ca', 'www.open-data.canada.ca'],
  ['api.example.com', 'API.example.com', 'api.example.com:443', 'api.example.com.', 'user:pw@api.example.com'],
  ['weather.gc.ca', 'www.weather.gc.ca', 'weather.gc.ca:8443'],
  ['climate.weather.gc.ca'],
  ['archive-api.open-meteo.com', 'archive-api.open-meteo.com:80'],
  ['github.com', 'www.github.com'],
  ['raw.githubusercontent.com'],
  ['example.org', 'example.org:8080', 'www.example.org'],
  ['bücher.example', 'xn--bcher-kva.example'],
  ['[2001:db8::1]', '[2001:db8::1]:8443'],
  ['127.example.com'],
  ['100.64.0.1'],
  ['Foo.com', 'foo.com'],
];

/** A host drawn from the locality tables; IPv6 in brackets, as a URL writes it. */
function tableHost(): readonly string[] {
  const host = localishHost(sideRandom);
  return [host.includes(':') ? `[${host}]` : host];
}

const LOCAL_HOSTS: readonly (readonly string[])[] = [
  ['localhost:3000', 'localhost', 'localhost:3000'],
  ['api.localhost:8080'],
  ['127.0.0.1:18999', '127.0.0.1'],
  ['192.168.1.20', '192.168.1.20:8080'],
  ['10.0.0.5:9200'],
  ['172.20.0.3'],
  ['0.0.0.0:8000'],
  ['169.254.169.254'],
  ['[::1]:8080', '[::1]', '[0:0:0:0:0:0:0:1]:8080'],
  ['[fe80::1]', '[FE80::1]:9000'],
  ['[fd00::2]:5000', '[fd00::2]'],
  ['[fc00::10]'],
];

const PATHS = ['/', '', '/x', '/api/v1/items', '/data/file.csv', '/a/b/', '/search', '/x.html', '/v1/archive', '/dataset/ecc'];

interface Target {
  spellings: readonly string[];
  path: string;
  query: string;
  paged: boolean;
}

function target(rng: Rng, localBias: number): Target {
  let spellings = rng.chance(localBias) ? rng.pick(LOCAL_HOSTS) : rng.pick(PUBLIC_HOSTS);
  // Every host a shipped alias table (either side's) folds, or a host from the locality tables.
  const roll = side().float();
  if (roll < 0.04) spellings = VOCABULARY.aliasHosts;
  else if (roll < 0.12) spellings = tableHost();
  return {
    spellings,
    path: rng.pick(PATHS),
    query: rng.pick(['', '', '', 'q=rain', 'id=3', 'b=2&a=1', 'flag', 'a=%20b&c=d+e', 'station=51442&format=csv']),
    paged: rng.chance(0.25),
  };
}

/** One spelling of a target's URL. */
function urlOf(rng: Rng, t: Target, n: number, vary: boolean): string {
  const host = vary ? rng.pick(t.spellings) : (t.spellings[0] as string);
  const scheme = vary && rng.chance(0.2) ? 'http' : 'https';
  const params: string[] = t.query ? [t.query] : [];
  if (t.paged) params.push(`page=${n + 1}`);
  if (vary && rng.chance(0.25)) {
    const param = rng.pick(['utm_source=chat', 'fbclid=abc', 'UTM_Medium=x', 'gclid=1', '_ga=2']);
    params.push(side().chance(0.5) ? `${trackingKey(sideRandom)}=${side().int(0, 9)}` : param);
  }
  let path = t.path;
  if (vary && path.length > 1 && rng.chance(0.2)) path += '/';
  const query = params.length > 0 ? `?${params.join('&')}` : '';
  const fragment = vary && rng.chance(0.1) ? '#top' : '';
  return `${scheme}://${host}${path}${query}${fragment}`;
}

function quoteUrl(rng: Rng, url: string): string {
  return rng.weighted([[6, url], [2, `"${url}"`], [1, `'${url}'`]]);
}

/** Decoy arguments the plugin must ignore (shell tools ignore a smaller set). */
function decoys(rng: Rng, shell: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (rng.chance(0.6)) out.description = rng.pick(['1st', '2nd', '3rd', 'fetch the data', 'retry', 'check status']);
  if (rng.chance(0.4)) out.timeoutMs = rng.pick([30000, 60000, 120000, 5000]);
  if (rng.chance(0.1)) out.run_in_background = rng.chance(0.5);
  if (rng.chance(0.1)) out.justification = rng.pick(['needed', 'again']);
  if (!shell && rng.chance(0.2)) out.reason = rng.pick(['r1', 'r2']);
  if (!shell && rng.chance(0.1)) out.title = 't';
  if (!shell && rng.chance(0.1)) out.comment = 'c';
  // Any key a shipped `ignoreArgs` list of either side names, its value changing from draw to draw.
  if (side().chance(0.3)) out[side().pick(DECOY_KEYS)] = `d${side().int(1, 9)}`;
  return out;
}

/** Every key a shipped `ignoreArgs` list (ours or the reference's) names, for any tool. */
const DECOY_KEYS = [...new Set(Object.values(VOCABULARY.decoys).flat())].sort();

const VOLATILE = [
  () => '-s', () => '-sSL', () => '-sS', () => '-L', () => '-fsSL', () => '-k', () => '--silent', () => '--compressed',
  (rng: Rng) => `--max-time ${rng.int(5, 120)}`, (rng: Rng) => `--max-time=${rng.int(5, 60)}`,
  (rng: Rng) => `-m ${rng.int(5, 60)}`, (rng: Rng) => `-m${rng.int(5, 60)}`,
  (rng: Rng) => `--retry ${rng.int(1, 5)}`, (rng: Rng) => `--connect-timeout ${rng.int(2, 10)}`,
  () => '-A "Mozilla/5.0"', () => '--user-agent curl/8', () => '--no-progress-meter',
] as const;

const WRAPPERS = ['', '', '', 'sudo ', 'env A=1 ', 'FOO=1 ', 'timeout 30 ', 'timeout --signal=KILL 20s ', 'nice -n 10 ', 'cd /work && ', 'time ', 'sudo -u root ', 'command '];

function volatileWrapper(rng: Rng): string {
  return rng.weighted([[6, ''], [2, `timeout ${rng.int(5, 90)} `], [1, `TZ=UTC${rng.int(0, 9)} `]]);
}

function httpShellAction(rng: Rng, localBias: number): Action {
  const verb = rng.weighted([[8, 'curl'], [3, 'wget'], [1, 'http'], [1, '/usr/bin/curl']]);
  let wrapper = rng.pick(WRAPPERS);
  if (side().chance(0.25)) wrapper = wrapperWords(sideRandom);
  const targets = [target(rng, localBias)];
  if (rng.chance(0.12)) targets.push(target(rng, localBias));
  const writeout = verb.endsWith('curl') && rng.chance(0.3) ? rng.pick(['-w "%{http_code}"', "-w '%{response_code}\\n'", '-w "%{http_code} %{url_effective}\\n"']) : '';
  const sink = rng.weighted<string>([
    [5, ''], [2, '-o /tmp/out.json'], [3, '-o /dev/null'], [1, '-o out.bin'], [1, verb === 'wget' ? '-O page.html' : '-O'],
    [1, '> page.html'], [1, '>> log.txt'], [1, '>/tmp/x.csv'], [1, '| tee a.txt'], [1, '| tee -a ./b.txt'],
    [1, '2>/dev/null'], [1, '-o -'], [1, '--output=c.json'], [1, '2>&1 > ./res.txt'], [1, '-o /workspace/od.bin'],
  ]);
  const pipe = sink.startsWith('|') ? '' : rng.weighted([[6, ''], [1, '| jq .'], [1, '| head -n 20'], [1, '| grep -i title'], [1, '| wc -c']]);
  const fixedFlags = rng.weighted([[5, ''], [1, '-H "Accept: application/json"'], [1, '-X POST --data "a=1"'], [1, '-I'], [1, '-sv']]);
  let shell = rng.weighted([[9, 'bash'], [1, 'shell']]);
  const varySpelling = rng.chance(0.6);
  const sinkFirst = rng.chance(0.3);
  // Laid over the main draws (which keep depending on what they drew): a shell,
  // an HTTP verb and a generic sink of either side's tables.
  if (side().chance(0.1)) shell = side().pick(VOCABULARY.shellTools);
  const shownVerb = side().chance(0.12) ? side().pick(VOCABULARY.httpVerbs) : verb;
  const shownSink = side().chance(0.1) ? `${side().pick(['-o ', '> ', '>>'])}${side().pick(VOCABULARY.genericSinks)}` : sink;
  return {
    failRate: writeout ? rng.pick([0, 0.5, 0.9, 1]) : rng.pick([0, 0, 0.1, 0.5, 0.9, 1]),
    draw(r, n) {
      const flags = r.sample(VOLATILE, r.int(0, 2)).map((f) => f(r));
      if (side().chance(0.3)) flags.push(volatileWord(sideRandom));
      const urls = targets.map((t) => quoteUrl(r, urlOf(r, t, n, varySpelling)));
      const words = [volatileWrapper(r) + wrapper + shownVerb, ...flags, fixedFlags, writeout];
      if (sinkFirst) words.push(shownSink, ...urls);
      else words.push(...urls, shownSink);
      words.push(pipe);
      const command = words.filter((w) => w !== '').join(' ');
      return { name: shell, arguments: { command, ...decoys(r, true) }, family: writeout ? 'writeout' : 'shell' };
    },
  };
}

const PLAIN_COMMANDS = [
  'ls -la /tmp', 'ls -s -L -k -f', 'grep -rn "TODO" src', 'npm test', 'npm install lodash', 'npm run build',
  'python3 scripts/fetch.py', 'python3 x.py > report.md', 'python3 -c "import json; print(1)"', 'cat /etc/hosts',
  'git status', 'wc -c /tmp/some-file.txt', 'echo hi | tee a.txt b.txt', 'echo a > x; echo b > y', 'timeout 30',
  'FOO=1', 'nohup ./run.sh &', 'make -j4 2>&1 | tail -n 20', 'pytest -q tests/test_api.py', 'cd /w && curl https://a.com/x',
  'python3 scripts/fetch.py --page 2 >> ././res.txt', 'echo done &> log.txt', '(curl https://example.com/x)',
  'timeout -s KILL 30 curl https://example.com/', 'C:\\tools\\Curl.EXE https://example.com/', 'jq .items data.json',
  'curl http://127\\.0\\.0\\.1:3080/', 'HTTPS://A.COM/x', 'env A=1 B=2 wget -q https://example.org/f -O f.bin',
  // P9: -m and -s are not curl's here.
  'python -m pytest -s -x tests', 'python -m http.server 8000', 'git commit -s -m "retry the fetch"', 'wget -m https://example.org/site/',
  // P10: a script written out, and one fed to an interpreter.
  "cat > fetch.py <<'EOF'\nimport requests\nprint(requests.get('https://api.example.com/v1/items').status_code)\nEOF",
  "python3 - <<'EOF'\nimport urllib.request\nurllib.request.urlopen('https://example.org/x')\nEOF",
];

function plainShellAction(rng: Rng): Action {
  const base = rng.pick(PLAIN_COMMANDS);
  const shell = rng.weighted([[8, 'bash'], [1, 'pwsh'], [1, 'shell']]);
  const workdir = rng.chance(0.2) ? rng.pick(['/work', '/tmp']) : undefined;
  return {
    failRate: rng.pick([0, 0, 0.2, 0.6, 1]),
    draw(r) {
      const command = `${volatileWrapper(r)}${base}`;
      const args: Record<string, unknown> = { command, ...decoys(r, true) };
      if (workdir !== undefined) args.workdir = workdir;
      return { name: shell, arguments: args, family: 'shell' };
    },
  };
}

/**
 * A script written out with a here-document (P10: its URL is no target), a
 * message recorded through one (P12: no target either), or a body fed to an
 * interpreter (its URL is). The URL comes from the same hosts the fetches
 * use, so `host:` counts meet either way.
 */
function heredocAction(rng: Rng, localBias: number): Action {
  const t = target(rng, localBias);
  const form = rng.weighted([
    [3, "cat > fetch.py <<'EOF'\nimport requests\nprint(requests.get('URL').status_code)\nEOF"],
    [1, 'cat <<EOF > notes.md\nSee URL for the data.\nEOF'],
    [1, "tee get.sh <<'END' >/dev/null\ncurl -s URL\nEND"],
    [1, "python3 - <<'EOF'\nimport urllib.request\nurllib.request.urlopen('URL')\nEOF"],
    [1, 'cat <<EOF | sh\ncurl -s URL\nEOF'],
    // P12: a message (a commit's, a pull request's) written through a command substitution or read from standard input.
    [3, "git commit -m \"$(cat <<'EOF'\nRetry the fetch\n\nSee URL for the failing call.\nEOF\n)\""],
    [1, "git add -A && git commit -q -m \"$(cat <<'EOF'\nFix URL\nEOF\n)\" && git log -1"],
    [1, "gh pr create --title \"Fix the fetch\" --body \"$(cat <<'EOF'\n## Summary\n- calls URL once\nEOF\n)\""],
    [1, "git commit -m \"`cat <<'EOF'\nUse URL\nEOF\n`\""],
    [1, "git commit -F - <<'EOF'\nUse URL\nEOF"],
    // A backslash-newline continues the line wherever it stands: before the command word, after an operator, inside the command.
    [1, "git add -A && \\\ngit commit -m \"$(cat <<'EOF'\nSee URL\nEOF\n)\""],
    [1, "git \\\n  commit -q \\\n  -m \"$(cat <<'EOF'\nRetry URL\nEOF\n)\""],
    [1, "\\\ngh pr create --body \"$(cat <<'EOF'\n- calls URL\nEOF\n)\""],
    [1, "git add -A; \\\ngit commit -F - <<'EOF'\nUse URL\nEOF"],
    [1, "git diff --quiet || \\\ngit commit -am \"$(cat <<'EOF'\nFix URL\nEOF\n)\""],
    [1, "git status --short | \\\ngit commit -F - <<'EOF'\nSee URL\nEOF"],
    [1, "cat \\\n  > notes.md <<'EOF'\nSee URL for the data.\nEOF"],
    // ... and texts that are not messages: run, fetched, or piped on.
    [1, "bash -c \"$(cat <<'EOF'\ncurl -s URL\nEOF\n)\""],
    [1, "git commit -m \"$(cat <<'EOF' | head -n 1\nSee URL\nEOF\n)\""],
    [1, "bash \\\n  -c \"$(cat <<'EOF'\ncurl -s URL\nEOF\n)\""],
  ]);
  return {
    failRate: rng.pick([0, 0, 0.5, 1]),
    draw(r, n) {
      const command = form.replace('URL', urlOf(r, t, n, true));
      return { name: 'bash', arguments: { command, ...decoys(r, true) }, family: 'shell' };
    },
  };
}

function pwshAction(rng: Rng, localBias: number): Action {
  const t = target(rng, localBias);
  const form = rng.pick(['Invoke-WebRequest -Uri URL -OutFile data.json', 'Invoke-RestMethod URL', 'iwr URL -TimeoutSec 30 | Out-File -FilePath x.txt', 'Get-ChildItem -Path C:\\work']);
  return {
    failRate: rng.pick([0, 0.5, 1]),
    draw(r, n) {
      const command = form.replace('URL', urlOf(r, t, n, true));
      return { name: 'pwsh', arguments: { command, ...decoys(r, true) }, family: 'shell' };
    },
  };
}

function urlToolAction(rng: Rng, localBias: number): Action {
  let name = rng.weighted([[6, 'web_fetch'], [1, 'MyFetcher'], [1, 'browse_page'], [1, 'WEB_FETCH']]);
  // A name some URL-tool pattern of either side matches.
  if (side().chance(0.1)) name = `my_${exampleOf(side().pick(VOCABULARY.urlToolPatterns), sideRandom)}`;
  const key = rng.weighted([[6, 'url'], [1, 'href'], [1, 'uri']]);
  const t = target(rng, localBias);
  const broken = rng.chance(0.05);
  const format = rng.chance(0.3) ? rng.pick(['markdown', 'text']) : undefined;
  return {
    failRate: rng.pick([0, 0, 0.3, 0.8, 1]),
    draw(r, n) {
      const args: Record<string, unknown> = { [key]: broken ? 'not a url' : urlOf(r, t, n, r.chance(0.7)), ...decoys(r, false) };
      if (format !== undefined) args.format = format;
      return { name, arguments: args, family: 'fetch' };
    },
  };
}

function searchAction(rng: Rng): Action {
  const query = rng.pick(['weather station 51442 csv', 'open canada dataset api', 'curl write-out http_code']);
  const withUrl = rng.chance(0.2);
  return {
    failRate: rng.pick([0, 0.3, 1]),
    draw(r, n) {
      const args: Record<string, unknown> = { query, ...decoys(r, false) };
      if (withUrl) args.url = `https://www.example.com/search?q=${encodeURIComponent(query)}&page=${(n % 3) + 1}`;
      if (r.chance(0.3)) args.count = 10;
      return { name: 'web_search', arguments: args, family: 'fetch' };
    },
  };
}

const FILES = ['/work/src/index.ts', '/work/README.md', 'data/stations.csv', '/tmp/out.json'];

function fileAction(rng: Rng): Action {
  const kind = rng.weighted([[5, 'read'], [2, 'write'], [2, 'edit'], [1, 'Read']]);
  const file = rng.pick(FILES);
  const positions = rng.sample([0, 200, 400, 600], rng.int(1, 3));
  const longContent = rng.weighted([
    [7, () => 'hello world'],
    [3, () => `${'x'.repeat(rng.int(80, 1500))}${rng.chance(0.2) ? '\u{1F600}' : ''}`],
    // a non-BMP character around the 95th character of the fingerprint (the P7 cut)
    [1, () => `${'x'.repeat(rng.int(66, 72))}\u{1F600}\u{1F600} tail`],
  ])();
  // P14: some file actions are DSH's minimal preset's editor (absolute paths, view windows);
  // `read` stays DSH's own, which pools (pools.ts).
  const editor = kind !== 'read' && side().chance(0.4);
  return {
    failRate: rng.pick([0, 0, 0.2, 1]),
    draw(r) {
      let args: Record<string, unknown>;
      if (kind === 'write') args = { file_path: file, content: longContent };
      else if (kind === 'edit') args = { file_path: file, old_string: r.pick(['foo', 'bar']), new_string: 'baz', ...(r.chance(0.2) ? { replace_all: true } : {}) };
      else args = { file_path: file, offset: r.pick(positions), limit: 200 };
      const spelled = { ...args, ...decoys(r, false) };
      // The editor's spelling draws from the side stream only: the main stream stays the one the seed gave.
      return editor ? { name: 'str_replace_editor', arguments: editorArgs(args), family: 'file' } : { name: kind, arguments: spelled, family: 'file' };
    },
  };
}

/** A file action's arguments as `str_replace_editor`'s: create, str_replace or insert, or view (with or without a window). */
function editorArgs(args: Record<string, unknown>): Record<string, unknown> {
  const file = String(args.file_path);
  const path = file.startsWith('/') ? file : `/work/${file}`;
  if ('content' in args) return { command: 'create', path, file_text: args.content };
  if ('old_string' in args) {
    return side().chance(0.25) ? { command: 'insert', path, insert_line: side().int(0, 40), new_str: args.new_string } : { command: 'str_replace', path, old_str: args.old_string, new_str: args.new_string };
  }
  const from = Number(args.offset) + 1;
  return side().chance(0.3) ? { command: 'view', path } : { command: 'view', path, view_range: [from, side().chance(0.2) ? -1 : from + Number(args.limit) - 1] };
}

function todoAction(rng: Rng): Action {
  return {
    failRate: 0,
    draw(r) {
      return { name: rng.pick(['todo_write']), arguments: { todos: [{ content: 'step', status: r.pick(['pending', 'done']) }] }, family: 'other' };
    },
  };
}

function oddAction(rng: Rng): Action {
  const form = rng.pick<() => Drawn>([
    () => ({ name: 'Bash', arguments: { command: 'curl https://a.com/x' }, family: 'shell' }),
    () => ({ name: 'lookup', arguments: 'str', family: 'other' }),
    () => ({ name: 'lookup', arguments: ['a', 1], family: 'other' }),
    () => ({ name: 'lookup', arguments: null, family: 'other' }),
    () => ({ name: 'bash', arguments: { command: 42 }, family: 'shell' }),
    () => ({ name: 'bash', arguments: {}, family: 'shell' }),
    () => ({ name: 'web_fetch', arguments: { url: 12 }, family: 'fetch' }),
    () => ({ name: 'task', arguments: { nested: { description: 'kept', b: [1, { d: 2, c: 3 }] }, description: 'dropped' }, family: 'other' }),
  ]);
  return { failRate: rng.pick([0, 1]), draw: () => form() };
}

/** A fresh action, drawn from the whole catalogue. */
export function generateAction(rng: Rng, localBias: number): Action {
  return rng.weighted<() => Action>([
    [10, () => httpShellAction(rng, localBias)],
    [5, () => plainShellAction(rng)],
    [2, () => heredocAction(rng, localBias)],
    [1, () => pwshAction(rng, localBias)],
    [4, () => urlToolAction(rng, localBias)],
    [1, () => searchAction(rng)],
    [4, () => fileAction(rng)],
    [1, () => todoAction(rng)],
    [1, () => oddAction(rng)],
  ])();
}
