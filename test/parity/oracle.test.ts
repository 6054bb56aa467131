/**
 * Self-checks of the parity machinery itself, independent of the port:
 *
 * - the adjusted oracle against a second copy of itself: 0 mismatches (the
 *   driver, generator and comparison are deterministic);
 * - each adjustment (P1–P4, P8–P15) is exercised by the generator: leaving
 *   it out makes sessions mismatch, and only sessions where its decision applies;
 * - the unpatched reference differs from the oracle only in sessions where some
 *   decision applies;
 * - pool order is exercised: some sessions decide differently when their pools'
 *   calls run one by one instead.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeHost, type CallOutcome, type PluginModule } from '../support/fake-host.js';
import { compareRuns, play, runSession, type Run } from './driver.js';
import { generateSession } from './generator.js';
import { DECISIONS, loadOracle, loadOracleModule, loadReference, type Decision } from './oracle.js';
import { poolCount, type Session } from './session.js';

const SEED = 7;
const SESSIONS = Number(process.env.PARITY_SELF_SESSIONS ?? 150);
/** How many more sessions the pool-order check may generate to find one that depends on the order. */
const EXTRA_SESSIONS = 600;

/** The sessions and the oracle's run of each, computed once for all the checks below. */
let cached: { oracle: PluginModule; sessions: Session[]; expected: Run[] } | undefined;
async function baseline(): Promise<{ oracle: PluginModule; sessions: Session[]; expected: Run[] }> {
  if (cached !== undefined) return cached;
  const oracle = await loadOracle();
  const sessions = Array.from({ length: SESSIONS }, (_, i) => generateSession(SEED, i));
  const expected: Run[] = [];
  for (const session of sessions) expected.push(await runSession(oracle, session));
  cached = { oracle, sessions, expected };
  return cached;
}

/** Every outcome of a session, with the raw ask and deny texts (reference wording). */
async function outcomes(plugin: PluginModule, session: Session): Promise<CallOutcome[]> {
  let host: FakeHost;
  try {
    host = new FakeHost(plugin, structuredClone(session.config));
  } catch {
    return [];
  }
  await play(host, Array.from({ length: session.agents }, () => ({})), session.steps);
  return host.log;
}

const WRITE_OUT = /%\{(?:http_code|response_code)\}/;

const { DEFAULTS: REFERENCE_DEFAULTS } = (await import(new URL('../../node_modules/reference-breaker/lib/defaults.js', import.meta.url).href)) as {
  DEFAULTS: Record<string, unknown>;
};

type Strip = { stripVolatileFlags(command: string): string };
/** The reference's `cmd:` reading with P9 and without it, loaded once. */
let strips: Promise<[Strip, Strip]> | undefined;

/** Whether P9 changes what `cmd:` reads of a command. */
async function scopedDiffers(command: string): Promise<boolean> {
  strips ??= Promise.all([loadOracleModule<Strip>('lib/normalize.js', ['P9']), loadOracleModule<Strip>('lib/normalize.js', [])]);
  const [scoped, unscoped] = await strips;
  return scoped.stripVolatileFlags(command) !== unscoped.stripVolatileFlags(command);
}

type Classify = { classifyFailure(result: unknown, options?: { shell?: boolean }): unknown };
/** The reference's classifier with P14 and without it, loaded once. */
let classifiers: Promise<[Classify, Classify]> | undefined;

function commandOf(call: { arguments: unknown }): string | undefined {
  const command = (call.arguments as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

/** Whether a decision can apply to a session, judged from the session and the oracle's run of it. */
async function applies(decision: Decision, session: Session, oracle: PluginModule, run: Run): Promise<boolean> {
  const calls = session.steps.flatMap((s) => (s.kind === 'call' ? [s] : []));
  const views = run.views.flatMap((v) => (v !== null && !('threw' in v) ? [v] : []));
  switch (decision) {
    case 'P1':
      return calls.some((c) => typeof (c.arguments as any)?.command === 'string' && WRITE_OUT.test((c.arguments as any).command));
    case 'P2':
      return session.steps.some((s, i) => s.kind === 'call' && s.answer === 'approve' && (run.views[i] as any)?.asked === true);
    case 'P3':
      return calls.some((c) => /:\/\/(?:[^/\s]*@)?\[/.test(JSON.stringify(c.arguments)));
    case 'P4': {
      // Some blocking list (asked or denied) names one fingerprint on both tracks.
      for (const outcome of await outcomes(oracle, session)) {
        const text = `${outcome.askReason ?? ''}\n${outcome.denyReason ?? ''}`;
        const failing = new Set<string>();
        const repeating = new Set<string>();
        for (const line of text.split('\n')) {
          const f = /^\s*- (.+?)(?: \u2014)? \d+ consecutive failures/.exec(line);
          if (f !== null) failing.add(f[1] as string);
          const r = /^\s*- (.+) \d+(?:\.\d+)?\/\d+(?:\.\d+)?$/.exec(line);
          if (r !== null) repeating.add(r[1] as string);
        }
        for (const fp of failing) if (repeating.has(fp)) return true;
      }
      return false;
    }
    case 'P13':
      // A call the operator was asked about and did not approve.
      return views.some((v) => v.asked && v.denied && (v.denial ?? '').startsWith('host:'));
    case 'P15':
      return views.some((v) => v.notices.length > 0);
    case 'P17':
      // A loop's later refusal in the turn: the breaker's denial, or a refused call's explanation (P13), with no hit lines.
      return views.some((v) => v.denied && (v.denial === 'REPEAT_TOOL_BLOCKED' ? v.hits.length === 0 : v.asked && v.explained.length === 0));
    case 'P8':
      // An ask inside a pool with a later call of the same agent in that pool.
      return session.steps.some(
        (s, i) =>
          s.kind === 'call' &&
          s.pool !== undefined &&
          (run.views[i] as any)?.asked === true &&
          session.steps.slice(i + 1).some((t) => t.kind === 'call' && t.pool === s.pool && t.agent === s.agent),
      );
    case 'P9':
      for (const call of calls) {
        const command = commandOf(call);
        if (command !== undefined && (await scopedDiffers(command))) return true;
      }
      return false;
    case 'P11': {
      // A key 0.5.2 does not know (pathAliases aside), or a cap that names no measure.
      const config = session.config as Record<string, unknown> | undefined;
      if (typeof config !== 'object' || config === null || Array.isArray(config)) return false;
      const known = new Set([...Object.keys(REFERENCE_DEFAULTS), 'pathAliases']);
      const limits = config.limits;
      const measures = ['exact', 'verb', 'family', 'cmd', 'act', 'net', 'site', 'host', 'sink'];
      const capKeys = typeof limits === 'object' && limits !== null ? Object.keys(limits) : [];
      return Object.keys(config).some((key) => !known.has(key)) || capKeys.some((key) => !measures.includes(key.split(':')[0] ?? ''));
    }
    case 'P14': {
      // A shell result whose text the P14 reading classifies otherwise than the reference's.
      classifiers ??= Promise.all([loadOracleModule<Classify>('lib/failure.js', ['P1', 'P14']), loadOracleModule<Classify>('lib/failure.js', ['P1'])]);
      const [read, unread] = await classifiers;
      return calls.some((call) => {
        if (call.body.kind !== 'return' || !['bash', 'pwsh', 'shell'].includes(call.name)) return false;
        return JSON.stringify(read.classifyFailure(call.body.result, { shell: true })) !== JSON.stringify(unread.classifyFailure(call.body.result, { shell: true }));
      });
    }
    case 'P10':
      // A here-document with a URL after its operator.
      return calls.some((call) => /<<[\s\S]*https?:\/\//.test(commandOf(call) ?? ''));
    case 'P12':
      // A here-document a recorder reads (git commit, gh pr), through a substitution or standard input, with a URL after its operator.
      return calls.some((call) => /(?:git|gh) [\s\S]*(?:(?:\$\(|`)cat|-F -) <<[\s\S]*https?:\/\//.test(commandOf(call) ?? ''));
  }
}

test('the adjusted oracle agrees with a second copy of itself, and never throws in a hook', async () => {
  const { sessions, expected } = await baseline();
  const copy = await loadOracle();
  for (const [i, session] of sessions.entries()) {
    const run = expected[i] as Run;
    if (i < 40) assert.equal(compareRuns(await runSession(copy, session), run), null, `session ${session.id}`);
    assert.ok(run.views.every((v) => v === null || !('threw' in v)), `the oracle threw in session ${session.id}`);
  }
});

test('each adjustment is exercised, and changes outcomes only where its decision applies', async (t) => {
  const { oracle, sessions, expected: runs } = await baseline();
  for (const decision of DECISIONS) {
    const without = await loadOracle(DECISIONS.filter((d) => d !== decision));
    let mismatches = 0;
    for (const [i, session] of sessions.entries()) {
      const expected = runs[i] as Run;
      if (compareRuns(await runSession(without, session), expected) === null) continue;
      mismatches += 1;
      assert.ok(await applies(decision, session, oracle, expected), `without ${decision}, session ${session.id} mismatches although ${decision} does not apply to it`);
    }
    t.diagnostic(`without ${decision}: ${mismatches} of ${SESSIONS} sessions mismatch`);
    assert.ok(mismatches > 0, `no generated session exercises ${decision}`);
  }
});

test('the unpatched reference differs from the oracle only where a decision applies', async (t) => {
  const { oracle, sessions, expected: runs } = await baseline();
  const reference = await loadReference();
  let mismatches = 0;
  for (const [i, session] of sessions.entries()) {
    const expected = runs[i] as Run;
    if (compareRuns(await runSession(reference, session), expected) === null) continue;
    mismatches += 1;
    const reasons: Decision[] = [];
    for (const decision of DECISIONS) if (await applies(decision, session, oracle, expected)) reasons.push(decision);
    assert.ok(reasons.length > 0, `the reference differs on session ${session.id}, where no decision applies`);
  }
  t.diagnostic(`reference vs oracle: ${mismatches} of ${SESSIONS} sessions mismatch`);
  assert.ok(mismatches > 0, 'the unpatched reference differs from the oracle on some session');
});

test('pool order is exercised: some sessions decide differently when their pools run call by call', async (t) => {
  const { oracle, sessions, expected: runs } = await baseline();
  let pooled = 0;
  let differ = 0;
  for (const [i, session] of sessions.entries()) {
    const sequential = generateSession(SEED, i, { pools: false });
    const changed = compareRuns(await runSession(oracle, sequential), runs[i] as Run) !== null;
    if (poolCount(session).pools === 0) {
      assert.equal(changed, false, `session ${session.id} has no pool, yet its sequential run differs`);
      continue;
    }
    pooled += 1;
    if (changed) differ += 1;
  }
  // Later sessions of the same seed, when none of the first does: since P17 a loop's later denials no longer
  // carry counts, so an order that moves a count a few calls is seen in fewer sessions. Fixed seeds: the
  // same sessions every run.
  for (let i = SESSIONS; differ === 0 && i < SESSIONS + EXTRA_SESSIONS; i += 1) {
    const session = generateSession(SEED, i);
    if (poolCount(session).pools === 0) continue;
    pooled += 1;
    const sequential = generateSession(SEED, i, { pools: false });
    if (compareRuns(await runSession(oracle, sequential), await runSession(oracle, session)) !== null) differ += 1;
  }
  t.diagnostic(`${differ} of ${pooled} sessions with pools decide differently call by call`);
  assert.ok(differ > 0, 'no generated session depends on pool order');
});
