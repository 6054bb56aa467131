/**
 * Prints a (shrunk) mismatching session as a node:test case, ready to paste into
 * a unit test of the port: each call is asserted against the view the expected
 * side (the adjusted oracle) produced.
 */
import type { Mismatch, Run } from './driver.js';
import { runEnd, type Session, type Step } from './session.js';

type CallStep = Extract<Step, { kind: 'call' }>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JavaScript literal for plain data (keeps `undefined`, `NaN`, `Infinity`). */
export function toSource(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (value === Number.POSITIVE_INFINITY) return 'Infinity';
    if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(toSource).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${toSource(v)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/** What the fake host's body returns when a call gives none. */
const PLAIN_OK = toSource({ kind: 'return', result: { isError: false, value: {}, content: [{ type: 'text', text: 'ok' }] } });

function agentRef(index: number | null): string {
  return index === null ? 'undefined' : `agents[${index}]`;
}

/** The `host.call`/`host.pool` input of one call step. */
function inputSource(step: CallStep): string {
  // The fake host's defaults (answer `none`, a plain `ok` success) are left out.
  const answer = step.answer === 'none' ? '' : `, answer: ${toSource(step.answer)}`;
  const body = toSource(step.body) === PLAIN_OK ? '' : `, body: bodyOf(${toSource(step.body)})`;
  const agent = step.fresh === true && step.agent !== null ? `{ id: 'agent-${step.agent}' }` : agentRef(step.agent);
  return `{ agent: ${agent}, name: ${toSource(step.name)}, arguments: ${toSource(step.arguments)}${answer}${body} }`;
}

function threw(expected: unknown): boolean {
  return expected !== null && typeof expected === 'object' && 'threw' in expected;
}

/** The lines of one step, or of one pool of calls (`at` is the index of its first step). */
function runSource(steps: readonly Step[], at: number, expected: readonly unknown[], observeArgs: string): string[] {
  const step = steps[0] as Step;
  if (step.kind === 'human') return [`  await host.human(${agentRef(step.agent)});`];
  if (step.kind === 'step') return [`  await host.step(${agentRef(step.agent)}, ${toSource(step.messages)});`];
  if (steps.length === 1) {
    const call = `host.call(${inputSource(step)})`;
    if (threw(expected[0])) return [`  await assert.rejects(${call});`];
    return [`  assert.deepEqual(observe(await ${call}${observeArgs}), ${toSource(expected[0])});`];
  }
  // One model step's parallel calls, in DSH's pool order.
  const inputs = (steps as CallStep[]).map((s) => `    ${inputSource(s)},`);
  if (threw(expected[0])) return [`  await assert.rejects(host.pool([`, ...inputs, '  ]));'];
  const name = `pool${at}`;
  return [
    `  const ${name} = await host.pool([`,
    ...inputs,
    '  ]);',
    ...steps.map((_, i) => `  assert.deepEqual(observe(${name}[${i}] as CallOutcome${observeArgs}), ${toSource(expected[i])});`),
  ];
}

export interface ReproInput {
  session: Session;
  originalSteps: number;
  attempts: number;
  mismatch: Mismatch;
  expected: Run;
  leftName: string;
  rightName: string;
  /** The views were taken with `observe(…, { details: true })`. */
  details?: boolean;
}

export function renderRepro(input: ReproInput): string {
  const { session, mismatch, expected } = input;
  const lines: string[] = [];
  lines.push(`// parity mismatch in session ${session.id}: shrunk from ${input.originalSteps} to ${session.steps.length} step(s) in ${input.attempts} re-runs`);
  if (mismatch.step < 0) {
    lines.push(`// config: ${input.leftName} ${toSource(mismatch.left)}, ${input.rightName} ${toSource(mismatch.right)}`);
  } else {
    lines.push(`// first difference at step ${mismatch.step}, in ${mismatch.fields.join(', ')}:`);
    lines.push(`//   ${input.leftName}: ${toSource(mismatch.left)}`);
    lines.push(`//   ${input.rightName}: ${toSource(mismatch.right)}`);
  }
  lines.push(`// expected values below are what ${input.rightName} observed`);
  lines.push(`test(${JSON.stringify(`parity ${session.id}`)}, async () => {`);
  const configArg = session.config === undefined ? '' : `, ${toSource(session.config)}`;
  if (expected.configError !== null) {
    lines.push(`  assert.throws(() => new FakeHost(plugin${configArg}), /^Error: repeat-tool-breaker: /);`);
    lines.push('});');
    return lines.join('\n');
  }
  lines.push(`  const host = new FakeHost(plugin${configArg});`);
  lines.push(`  const agents = [${Array.from({ length: session.agents }, (_, i) => `{ id: 'agent-${i}' }`).join(', ')}];`);
  const observeArgs = input.details === true ? ', { details: true }' : '';
  for (let at = 0; at < session.steps.length; ) {
    const end = runEnd(session.steps, at);
    lines.push(...runSource(session.steps.slice(at, end), at, session.steps.slice(at, end).map((_, i) => expected.views[at + i] ?? null), observeArgs));
    at = end;
  }
  if (input.mismatch.fields.includes('teardown')) {
    lines.push('  host.dispose();');
    lines.push('  assert.equal(host.registrations, 0);');
  }
  lines.push('});');
  return lines.join('\n');
}

/** The imports a pasted repro needs (printed once per report). */
export const REPRO_IMPORTS = [
  "import { test } from 'node:test';",
  "import assert from 'node:assert/strict';",
  "import plugin from '../../src/index.js';",
  "import { FakeHost, type CallOutcome } from '../support/fake-host.js';",
  "import { bodyOf } from '../parity/driver.js';",
  "import { observe } from '../parity/observe.js';",
].join('\n');
