/**
 * Tool results of every shape the failure classifier reads: exit codes, status
 * codes, timeouts, signals, background jobs, sandbox denials, `isError` (returned
 * and thrown), text markers, curl write-out status lines, and successes that
 * merely mention an error. Result texts never start a line with `- `, so a
 * quoted previous result can never be mistaken for a hit line of a denial.
 */
import type { HostResult } from '../support/fake-host.js';
import type { Rng } from '../support/prng.js';
import type { BodySpec } from './session.js';
import { failureEvidence } from '../support/vocabulary.js';
import { side, sideRandom } from './side-stream.js';

/** What kind of tool produced the result; picks plausible shapes. */
export type ResultFamily = 'shell' | 'writeout' | 'fetch' | 'file' | 'other';

function bash(exitCode: number | null, text: string, extra: Record<string, unknown> = {}): BodySpec {
  const marker = typeof exitCode === 'number' && exitCode !== 0 ? `\n[exit code: ${exitCode}]` : '';
  const result: HostResult = {
    isError: false,
    value: {
      kind: 'foreground', exitCode, signal: null, timedOut: false, aborted: false, timeoutMs: 120000,
      stdout: { text, truncated: false }, stderr: { text: '', truncated: false }, ...extra,
    },
    content: [{ type: 'text', text: `${text}${marker}` }],
  };
  return { kind: 'return', result };
}

function text(value: unknown, body: string, isError = false): BodySpec {
  return { kind: 'return', result: { isError, value, content: [{ type: 'text', text: body }] } };
}

const LONG = 'lorem ipsum dolor sit amet '.repeat(40);

function shellSuccess(rng: Rng): BodySpec {
  const body = oneShotSuccess(rng);
  // P14: the persistent shell's texts that are no failure (the main stream drew as before).
  return side().chance(0.1) ? persistentSuccess() : body;
}

function oneShotSuccess(rng: Rng): BodySpec {
  return rng.weighted<() => BodySpec>([
    [10, () => bash(0, rng.pick(['ok', 'total 12\ndrwxr-xr-x 2 root root 4096 a', '{"items":[1,2,3]}', 'done.']))],
    [2, () => bash(0, '')],
    [2, () => bash(0, LONG)],
    [1, () => bash(0, 'The docs say ValueError: is raised when x < 0.')],
    [1, () => bash(0, 'redirected (HTTP 302) to the mirror')],
    [1, () => bash(0, 'step one [exit code: 0]\nstep two [exit code: 3]')],
    [1, () => ({ kind: 'return', result: { isError: false, value: { kind: 'background', jobId: 'job-1', exitCode: 1 }, content: [{ type: 'text', text: '[started background job job-1]' }] } })],
    [1, () => bash(0, '404 /tmp/some-file.txt')],
    [1, () => ({ kind: 'return', result: { isError: false, value: 'plain', content: 'not an array' } })],
    [1, () => ({ kind: 'return', result: { isError: false, content: [{ type: 'image', data: 'x' }, { type: 'text', text: '' }] } })],
  ])();
}

function shellFailure(rng: Rng): BodySpec {
  const body = cannedShellFailure(rng);
  // P14: the persistent shell's failures (time-out, the shell's death, an exit status).
  if (side().chance(0.15)) return persistentFailure();
  // The classifier's evidence as either side's tables spell it (or a near miss of it).
  return side().chance(0.2) ? bash(0, `${side().pick(['', 'output\n', 'step 1\n'])}${failureEvidence(sideRandom)}`) : body;
}

/** A result as DSH's persistent bash or pwsh writes it: a string value, one text block. */
function persistent(body: string): BodySpec {
  return { kind: 'return', result: { isError: false, value: body, content: [{ type: 'text', text: body }] } };
}

function resetNotice(shell: string): string {
  return `The persistent ${shell} shell was reset; the next ${shell} call starts from the workspace with a fresh current directory and environment.`;
}

function persistentFailure(): BodySpec {
  const s = side();
  const shell = s.pick(['bash', 'bash', 'pwsh']);
  const partial = s.pick(['', 'epoch 1/50', 'building...\nstep 2', 'Traceback (most recent call last):\nKeyError: x', '[exit code: 1]']);
  const marker = s.pick(['[shell killed by signal: SIGKILL]', '[shell killed by signal: SIGTERM]', '[shell exited: code 1]', '[shell exited: code 0]', '[shell exited: code -1]', '[shell exited]']);
  return s.weighted<() => BodySpec>([
    [4, () => persistent([`Your command timed out after ${s.pick([300, 30, 1, 0])} seconds or experienced an OOM error. Below is partial output:`, partial, resetNotice(shell)].join('\n'))],
    [3, () => persistent([partial === '' ? marker : `${partial}\n${marker}`, resetNotice(shell)].join(s.pick(['\n', '\r\n'])))],
    [2, () => persistent(`${s.pick(['', 'error: x\n'])}[exit code: ${s.pick([1, 2, 127])}]`)],
  ])();
}

/** Persistent-shell texts that are no failure: a success, a child waiting on stdin, and the framing's words out of place. */
function persistentSuccess(): BodySpec {
  const s = side();
  return s.pick<() => BodySpec>([
    () => persistent(s.pick(['ok', '', 'total 12'])),
    () => persistent('Overwrite existing file? [y/N]'),
    () => persistent('log: Your command timed out after 300 seconds or experienced an OOM error. Below is partial output:'),
    () => persistent(`[shell exited: code 1] in the notes\n${resetNotice('bash')}`.replace('[shell', 'see [shell')),
    () => persistent(`[shell killed by signal: SIGKILL]\nthen\n${resetNotice('bash')}`),
    () => persistent(`[shell killed by signal: ]\n${resetNotice('bash')}`),
    () => persistent(`[shell exited: code x]\n${resetNotice('pwsh')}`),
    () => persistent(`[shell exited]\n${resetNotice('bash').replace('next bash', 'next pwsh')}`),
  ])();
}

function cannedShellFailure(rng: Rng): BodySpec {
  return rng.weighted<() => BodySpec>([
    [8, () => bash(rng.pick([1, 2, 7, 22, 127, -1]), rng.pick(['', 'error: not found', 'npm ERR! code ELIFECYCLE']))],
    [2, () => bash(null, '[timed out after 30000ms]', { timedOut: true, timeoutMs: rng.pick([30000, 0]) })],
    [2, () => bash(null, '[killed by signal: SIGKILL]', { signal: rng.pick(['SIGKILL', 'SIGTERM', '']) })],
    [1, () => bash(0, '[sandbox: file access denied under read-only mode]', { sandbox: { mode: 'read-only', denied: true } })],
    [2, () => bash(0, 'fetching...\nfailed (HTTP 404)')],
    [2, () => bash(0, 'Traceback (most recent call last):\n  File "fetch.py", line 3, in <module>\nurllib.error.HTTPError: HTTP Error 404: Not Found')],
    [1, () => bash(0, '  File "x.py", line 1\n    print(\nSyntaxError: unexpected EOF while parsing')],
    [1, () => bash(0, 'warning: HTTP Error 503: Service Unavailable')],
    [2, () => bash(0, rng.pick(['curl: (6) Could not resolve host: api.example.com', 'curl: (28) Operation timed out after 5000 ms']))],
    [1, () => bash(0, '[timed out after 1500ms]')],
    [1, () => bash(0, 'job output\n[killed by signal: SIGSEGV]')],
    [1, () => bash(0, '[sandbox: file access denied under workspace-write mode]')],
    [1, () => bash(0, 'Traceback (most recent call last):\n  boom')],
    [2, () => ({ kind: 'return', result: { isError: true, content: [{ type: 'text', text: 'Error: spawn failed' }], error: { message: 'spawn failed', code: rng.pick(['ENOENT', 'EACCES']) } } })],
    [1, () => ({ kind: 'throw', message: 'bash crashed', info: { code: 'E_BASH', name: 'BashError' } })],
    [1, () => ({ kind: 'return', result: { isError: true, error: { name: 'AbortError' } } })],
  ])();
}

function writeoutResult(rng: Rng, fail: boolean): BodySpec {
  if (fail) {
    return rng.weighted<() => BodySpec>([
      [5, () => bash(0, `${rng.pick(['404', '500', '503', '429', '401'])} https://weather.gc.ca/x.html\n`)],
      [2, () => bash(0, rng.pick(['  404', '503', '404\n', '\n500 oops']))],
      [1, () => bash(0, 'Here is a page that mentions 404 in passing.\n200')],
      [1, () => bash(0, '4040 bytes')],
      [1, () => bash(0, '000')],
      [2, () => shellFailure(rng)],
    ])();
  }
  return rng.weighted<() => BodySpec>([
    [5, () => bash(0, '200 https://climate.weather.gc.ca/x.html\n153226 /tmp/ecc.html\n')],
    [2, () => bash(0, rng.pick(['200', '301', '204\n']))],
    [1, () => shellSuccess(rng)],
  ])();
}

function fetchResult(rng: Rng, fail: boolean): BodySpec {
  if (fail) {
    return rng.weighted<() => BodySpec>([
      [5, () => text({ statusCode: rng.pick([404, 500, 403, 429]), url: 'https://x' }, 'Not Found')],
      [2, () => ({ kind: 'return', result: { isError: true, content: [{ type: 'text', text: 'Error: fetch failed' }], error: { message: 'fetch failed', code: rng.pick(['ETIMEDOUT', 'ENOTFOUND']) } } })],
      [1, () => text({ timedOut: true, timeoutMs: 10000 }, 'timed out')],
      [1, () => ({ kind: 'throw', message: 'network down', info: { code: 'ECONNRESET' } })],
      [1, () => text({ statusCode: '404' }, 'HTTP Error 404')],
    ])();
  }
  return rng.weighted<() => BodySpec>([
    [6, () => text({ statusCode: 200, url: 'https://x' }, '# Page\nsome content')],
    [1, () => text({ statusCode: 200 }, 'Traceback (most recent call last):\nValueError: page about errors (HTTP 500)')],
    [1, () => text({ statusCode: 301 }, 'moved')],
    [1, () => text({}, 'HTTP Error 404 mentioned in a search snippet')],
    [1, () => text({ statusCode: 200 }, LONG)],
  ])();
}

function fileResult(rng: Rng, fail: boolean): BodySpec {
  const body = fileToolResult(rng, fail);
  // P14: str_replace_editor's refusals (thrown FsErrors) and its plain-text successes.
  return side().chance(0.15) ? editorResult(fail) : body;
}

function fileToolResult(rng: Rng, fail: boolean): BodySpec {
  if (fail) {
    return rng.weighted<() => BodySpec>([
      [4, () => ({ kind: 'return', result: { isError: true, content: [{ type: 'text', text: 'Error: no such file' }], error: { message: 'no such file', code: 'ENOENT' } } })],
      [2, () => ({ kind: 'throw', message: 'old_string not found', info: { code: 'E_EDIT' } })],
      [1, () => text({ sandbox: { denied: true, mode: 'read-only' } }, 'denied')],
      [1, () => text({ exitCode: 1 }, 'odd value')],
    ])();
  }
  return rng.weighted<() => BodySpec>([
    [6, () => text({ bytes: 120 }, '1\timport os\n2\tprint("hi")')],
    [1, () => text({}, 'raise ValueError: bad input\nValueError: bad input')],
    [1, () => text({}, LONG)],
    [1, () => text({}, '')],
  ])();
}

function editorResult(fail: boolean): BodySpec {
  const s = side();
  if (fail) {
    return s.pick<() => BodySpec>([
      () => ({ kind: 'throw', message: 'No replacement was performed, old_str `foo` did not appear verbatim in /work/x.', info: { name: 'FsError', code: 'FS_EDIT_NOT_FOUND' } }),
      () => ({ kind: 'throw', message: 'No replacement was performed. Multiple occurrences of old_str `foo` in lines [3, 9]. Please ensure it is unique', info: { name: 'FsError', code: 'FS_AMBIGUOUS_EDIT' } }),
      () => ({ kind: 'throw', message: 'The path /work/x does not exist. Please provide a valid path.', info: { name: 'FsError', code: 'FS_NOT_FOUND' } }),
      () => ({ kind: 'throw', message: 'File already exists at: /work/x. Cannot overwrite files using command `create`.' }),
    ])();
  }
  const body = s.pick(['The file /work/x has been edited successfully.', 'New file created successfully at: /work/x', "Here's the content of /work/x with line numbers (which has a total of 3 lines):\n     1  a\n"]);
  return { kind: 'return', result: { isError: false, value: body, content: [{ type: 'text', text: body }] } };
}

/**
 * Tag a result's text with a unique marker ` #r<n>` at the end of its last
 * non-empty text block, so a denial that quotes "the previous result" shows which
 * one it quoted (contract §2.13, §3.7 Q6). A suffix changes no classification:
 * every text rule either anchors at the start or reads the first occurrence.
 */
export function tagBody(body: BodySpec, n: number): BodySpec {
  if (body.kind !== 'return' || !Array.isArray(body.result.content)) return body;
  const content = body.result.content as unknown[];
  for (let i = content.length - 1; i >= 0; i -= 1) {
    const block = content[i] as { type?: unknown; text?: unknown } | null;
    if (block !== null && typeof block === 'object' && typeof block.text === 'string' && block.text.length > 0) {
      const tagged = [...content];
      tagged[i] = { ...block, text: `${block.text} #r${n}` };
      return { kind: 'return', result: { ...body.result, content: tagged } };
    }
  }
  return body;
}

/** A result for one call. `fail` says whether this draw should be a failure. */
export function generateBody(rng: Rng, family: ResultFamily, fail: boolean): BodySpec {
  switch (family) {
    case 'shell':
      return fail ? shellFailure(rng) : shellSuccess(rng);
    case 'writeout':
      return writeoutResult(rng, fail);
    case 'fetch':
      return fetchResult(rng, fail);
    case 'file':
      return fileResult(rng, fail);
    default:
      return fail ? fileResult(rng, true) : text({}, 'ok');
  }
}
