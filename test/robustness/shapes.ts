/**
 * The hostile inputs of the robustness suite, seeded and sized: what a model
 * (or a confused host) can put in a tool call's arguments, its result, or the
 * pipeline objects around them. Each maker takes a size `n`, so the same shape
 * serves the no-throw suite (one large instance) and the linear-time suite
 * (n against 8n).
 */

/** The seeded source of every hostile mix: the same seed gives the same inputs on every run. */
export { mulberry32 as seeded } from '../support/prng.js';

/** A Proxy whose every trap throws. */
export function throwingProxy<T extends object>(target: T): T {
  const trap = (): never => {
    throw new Error('trap');
  };
  return new Proxy(target, {
    get: trap, set: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap,
    defineProperty: trap, deleteProperty: trap, isExtensible: trap, preventExtensions: trap, setPrototypeOf: trap,
    apply: trap, construct: trap,
  });
}

export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

export function deepArray(depth: number): unknown {
  let node: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) node = [node];
  return node;
}

export function deepObject(depth: number): unknown {
  let node: unknown = { leaf: true };
  for (let i = 0; i < depth; i += 1) node = { z: node, a: i };
  return node;
}

function cyclic(): unknown {
  const a: Record<string, unknown> = { name: 'a' };
  const b: unknown[] = [a, 1];
  a.self = a;
  a.list = b;
  b.push(b);
  return { a, b, shared: [a, a] };
}

function throwingGetter(): unknown {
  return Object.defineProperty({ path: '/w/x' }, 'content', {
    enumerable: true,
    get() {
      throw new Error('getter');
    },
  });
}

/** Argument values that are hard to read, walk or serialize (§2.4, P5). */
export const HOSTILE_ARGUMENTS: ReadonlyArray<readonly [string, () => unknown]> = [
  ['100,000-deep arrays', () => ({ data: deepArray(100_000) })],
  ['100,000-deep objects', () => ({ data: deepObject(100_000) })],
  ['cycles', cyclic],
  ['BigInt', () => ({ n: 12345678901234567890n, list: [1n, -2n] })],
  ['symbols', () => ({ s: Symbol('x'), [Symbol('k')]: 1, list: [Symbol('y')] })],
  ['functions', () => ({ f: () => 1, list: [Math.max], toJSON: () => 'hijacked' })],
  ['a throwing toJSON', () => ({ toJSON() { throw new Error('toJSON'); }, x: 1 })],
  ['a throwing getter', throwingGetter],
  ['a throwing getter nested', () => ({ inner: throwingGetter(), list: [throwingGetter()] })],
  ['a Proxy whose traps throw', () => throwingProxy({ command: 'ls' })],
  ['a nested Proxy whose traps throw', () => ({ command: 'ls', inner: throwingProxy({}), list: [throwingProxy([])] })],
  ['a revoked Proxy', () => revokedProxy()],
  ['a nested revoked Proxy', () => ({ p: revokedProxy() })],
  ['null', () => null],
  ['undefined', () => undefined],
  ['a string', () => 'rm -rf /'],
  ['a number', () => 42],
  ['NaN and Infinity', () => ({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: -0 })],
  ['an array', () => [1, 'two', null]],
  ['a __proto__ key', () => JSON.parse('{"__proto__":{"polluted":1},"command":"ls"}') as unknown],
  ['a null-prototype object', () => Object.assign(Object.create(null) as object, { command: 'ls' })],
  ['a Map, a Set, a Date, a RegExp', () => ({ m: new Map([[1, 2]]), s: new Set([1]), d: new Date(0), r: /x/g })],
  ['a 64 KB typed array', () => ({ bytes: new Uint8Array(1 << 16) })],
  ['100,000 keys', () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${(i * 7919) % 100_000}`, i]))],
  ['index-like keys', () => ({ '4294967295': 1, '10': 2, '2': 3, '01': 4, a: 5 })],
  ['a non-string command', () => ({ command: { toString: () => 'curl x' } })],
  ['a command that is a Proxy', () => ({ command: throwingProxy({}) })],
  ['a url that is a number', () => ({ url: 8080, href: null, uri: [] })],
];

/** Shell commands: huge, binary, unbalanced, URL-laden (§2.5–2.11, P5). */
export const HOSTILE_COMMANDS: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ['words', (n) => `echo ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n)}`],
  ['one long word', (n) => `echo ${'x'.repeat(n)}`],
  ['a heredoc', (n) => `cat > /w/out.txt <<'EOF'\n${'const x = "a\\\\b"; // it\'s\n'.repeat(Math.ceil(n / 26)).slice(0, n)}\nEOF`],
  // P12: messages through command substitutions, many of them, nested past the scan's depth, unterminated, and a line of non-operators.
  ['commit messages in substitutions', (n) => `git commit -m "$(cat <<'EOF'\nSee https://a.com/x\nEOF\n)" && `.repeat(Math.ceil(n / 50)).slice(0, n)],
  ['nested substitutions around a heredoc', (n) => `git commit -m "${'$(echo "'.repeat(Math.ceil(n / 9))}$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)"`],
  ['an unterminated heredoc in a substitution', (n) => `git commit -m "$(cat <<'EOF'\n${'https://a.com/x '.repeat(Math.ceil(n / 16))}`],
  ['here-strings before a heredoc in a substitution', (n) => `gh pr create --body "$(cat ${'<<<x '.repeat(Math.ceil(n / 5))}<<'EOF'\nhttps://a.com/x\nEOF\n)"`],
  // Many here-documents in one simple command of many words: the command is judged once, not once a body.
  ['here-documents on one line after assignments', (n) => `${'A=1 '.repeat(Math.ceil(n / 16))}cat ${'<<E '.repeat(Math.ceil(n / 16))}\n${'https://a.com/x\nE\n'.repeat(Math.ceil(n / 16))}`],
  ['NUL bytes', (n) => `printf '${'\u0000a'.repeat(n / 2)}' > /w/nul`],
  ['lone surrogates', (n) => `echo ${'\ud800x\udc00 '.repeat(n / 4)} https://\ud800.example.com/\udfff`],
  ['unbalanced double quote', (n) => `curl "${'a \\" '.repeat(n / 4)}`],
  ['unbalanced single quote', (n) => `echo '${'b\\ '.repeat(n / 3)}`],
  ['runs of backslashes', (n) => `echo ${'\\'.repeat(n)}`],
  ['alternating quotes', (n) => `"a'`.repeat(n / 3)],
  ['many URLs', (n) => `curl ${Array.from({ length: Math.ceil(n / 30) }, (_, i) => `https://h${i}.example.com/p?i=${i}`).join(' ')}`],
  ['one long host name', (n) => `curl https://${'a'.repeat(n)}.com/x -o /w/a`],
  ['long dotted host', (n) => `curl https://${'a.'.repeat(n / 2)}com/x`],
  ['IPv6, userinfo and unicode URLs', (n) => `curl ${'https://u:p@[::1]:80/x http://[fe80::1%25eth0]/ https://bücher.example/ä?utm_x=1 https://xn--bcher-kva.example:8443/ '.repeat(Math.ceil(n / 110))}`],
  ['scheme-like fragments', (n) => 'http:/https:/'.repeat(n / 13)],
  ['punctuation after a URL', (n) => `curl https://a.com/${'.,;)'.repeat(n / 4)}`],
  ['volatile flags', (n) => `curl ${'-sSLfk --max-time 5 -m5 --retry=3 '.repeat(n / 36)}https://a.com`],
  ['wrappers and assignments', (n) => `${'A=1 sudo -u r timeout --k 5 '.repeat(n / 29)}curl https://a.com`],
  ['tee with many dash words', (n) => `echo x | tee ${'-a '.repeat(n / 3)}/w/t`],
  ['a sink of many ./', (n) => `echo > ${'./'.repeat(n / 2)}x`],
  ['a write-out request and leading spaces', (n) => `curl -o /dev/null -w "%{http_code}" https://a.com ${'x'.repeat(n)}`],
];

const text = (t: string): unknown => ({ isError: false, value: {}, content: [{ type: 'text', text: t }] });

/** Tool results for the failure classifier and the result preview (§4, P5). */
export const HOSTILE_RESULTS: ReadonlyArray<readonly [string, (n: number) => unknown]> = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['a string', () => 'ok'],
  ['content not an array', () => ({ isError: false, content: 'text' })],
  ['content holding nulls', () => ({ content: [null, undefined, 1, 'x', { type: 'text' }, { type: 'text', text: null }] })],
  ['many blocks', (n) => ({ content: Array.from({ length: n / 5 }, (_, i) => ({ type: 'text', text: i % 3 === 0 ? '' : 'ab' })) })],
  ['blank lines', (n) => text(`${'\n'.repeat(n)}x`)],
  ['blank lines of spaces', (n) => text(`${' \t\n'.repeat(n / 3)}x`)],
  ['blank lines then a status', (n) => text(`${' \n'.repeat(n / 2)}404`)],
  ['identifier characters', (n) => text('a'.repeat(n))],
  ['identifier characters and dots', (n) => text(`Traceback (most recent call last)\n${'a.'.repeat(n / 2)}`)],
  ['dots and a colon', (n) => text(`${'a.'.repeat(n / 2)}Error:x`)],
  ['a traceback with long dotted names', (n) => text(`Traceback (most recent call last)\n${`  File "x.py"\n${'pkg.'.repeat(40)}ValueError: no\n`.repeat(n / 180)}`)],
  ['unclosed signal markers', (n) => text('[killed by signal: '.repeat(n / 19))],
  ['unclosed exit markers', (n) => text(`${'[exit code: 1'.repeat(n / 13)}`)],
  ['digits without a close', (n) => text(`[timed out after ${'1'.repeat(n)}`)],
  ['HTTP markers', (n) => text('(HTTP 4'.repeat(n / 7))],
  ['curl markers', (n) => text(`curl: (${'9'.repeat(n)}`)],
  ['tool-call markup', (n) => text('<tool_call><function=x>'.repeat(n / 23))],
  // P14: the persistent shell's framing, as many times as fits and never quite right.
  ['reset notices after non-marker lines', (n) => text(`${'x'.repeat(n / 2)}${'\nThe persistent bash shell was reset; the next bash call starts from the workspace with a fresh current directory and environment.'.repeat(n / 260)}`)],
  ['notice heads without a notice', (n) => text('\nThe persistent '.repeat(n / 16))],
  ['death markers without a close, before a notice', (n) => text(`[shell killed by signal: ${'S'.repeat(n)}\nThe persistent bash shell was reset; the next bash call starts from the workspace with a fresh current directory and environment.`)],
  ['a time-out sentence with a huge number', (n) => text(`Your command timed out after ${'9'.repeat(n)} seconds or experienced an OOM error. Below is partial output:`)],
  ['a throwing getter', () => Object.defineProperty({}, 'content', { get() { throw new Error('getter'); } })],
  ['a Proxy whose traps throw', () => throwingProxy({})],
  ['an error that is a Proxy', () => ({ isError: true, error: throwingProxy({}) })],
  ['a value whose getters throw', () => ({ value: Object.defineProperty({}, 'exitCode', { get() { throw new Error('x'); } }), content: [] })],
  ['a huge error code', (n) => ({ isError: true, error: { code: 'E'.repeat(n) } })],
  ['a huge signal', (n) => ({ value: { signal: 'SIG'.repeat(n / 3) } })],
  ['a huge sandbox mode', (n) => ({ value: { sandbox: { denied: true, mode: 'm'.repeat(n) } } })],
];

/**
 * Commands aimed at the `act:` reader and rules (n is the length): long
 * pipelines and lists, clusters, chains of wrappers, assignments, views and
 * redirections, many operands to respell, a nested `bash -c`, and syntax the
 * reader gives up on at the very end.
 */
/** Shapes aimed at the PowerShell cmdlets rule (read under pwsh; sh reads them too). */
export const PWSH_HOSTILE_COMMANDS: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ['cmdlet arguments left over after binding', (n) => `gc ${'x '.repeat(n / 2)}`],
  ['a long parameter prefix', (n) => `Get-Content -${'Ta'.repeat(n / 2)} 5 x`],
  ['cmdlet parameters bound by prefix', (n) => `sls -Patt x ${'-Path:a.cs '.repeat(n / 11)}`],
  ['Select-Object views after a run', (n) => `dotnet test${' | select -last 5'.repeat(n / 17)}`],
  ['cmdlets piped', (n) => `${'gc x -Tail 5 | '.repeat(n / 16)}sls y`],
];

export const ACT_HOSTILE_COMMANDS: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ['a long pipeline', (n) => `${'a | '.repeat(n / 4)}a`],
  ['a long && list', (n) => `${'cd d && '.repeat(n / 8)}make -C x test`],
  ['a long switch cluster', (n) => `ls -${'la'.repeat(n / 2)} /tmp`],
  ['a chain of wrappers', (n) => `${'timeout 5 nice '.repeat(n / 15)}make`],
  ['a chain of assignments under env', (n) => `env ${'A=1 '.repeat(n / 4)}make`],
  ['views after a runner', (n) => `pytest${' | tail -5'.repeat(n / 10)}`],
  ['plumbing redirections', (n) => `make${' 2>&1 >/dev/null'.repeat(n / 16)}`],
  ['operands to respell', (n) => `rm -rf ${'./a//b/ '.repeat(n / 8)}`],
  ['cat pipes', (n) => `${'cat f | head | '.repeat(n / 16)}wc`],
  ['directory flags', (n) => `npm ${'--prefix d '.repeat(n / 11)}test`],
  ['pytest options', (n) => `python -m pytest ${'-k x --tb short '.repeat(n / 16)}tests`],
  ['quoted pieces', (n) => `echo ${`'a'"b"\\c`.repeat(n / 9)}`],
  ['nested bash -c', (n) => `bash -c "bash -c 'bash -c ${'x '.repeat(n / 2)}'"`],
  ['a substitution at the very end', (n) => `grep -rn ${'x '.repeat(n / 2)}$(date)`],
  ['unclosed ${', (n) => `echo ${'${'.repeat(n / 2)}`],
  ['newlines and semicolons', (n) => `${'ls\n;'.repeat(n / 3)}`],
  ...PWSH_HOSTILE_COMMANDS,
];
