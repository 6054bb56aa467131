/**
 * `npm run parity -- --sessions N --seed S [--from I] [--left port] [--right oracle] [--reports K] [--stop-after M] [--no-details] [--no-pools]`
 *
 * Runs N generated sessions through two plugins (default: the port against the
 * adjusted oracle), prints sessions, calls and mismatches, and a shrunk,
 * paste-ready reproduction of the first K mismatches. Exit code 1 on any mismatch.
 * Failure-description details are compared unless `--no-details` is given;
 * `--no-pools` runs every call as a step of its own (the sessions as generated
 * before pools of parallel calls existed).
 */
import { loadPlugin } from './plugins.js';
import { REPRO_IMPORTS } from './repro.js';
import { runParity } from './run.js';

function parseArgs(argv: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq !== -1) out.set(arg.slice(2, eq), arg.slice(eq + 1));
    else out.set(arg.slice(2), argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith('--') ? (argv[(i += 1)] as string) : 'true');
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const sessions = Number(args.get('sessions') ?? 2000);
const seed = Number(args.get('seed') ?? 20250101);
const from = Number(args.get('from') ?? 0);
const reports = Number(args.get('reports') ?? 3);
const details = !args.has('no-details');
const pools = !args.has('no-pools');
const stopAfter = args.has('stop-after') ? Number(args.get('stop-after')) : undefined;
const leftName = args.get('left') ?? 'port';
const rightName = args.get('right') ?? 'oracle';
if (!Number.isInteger(sessions) || sessions < 1 || !Number.isInteger(seed) || !Number.isInteger(from)) {
  console.error('usage: npm run parity -- --sessions N --seed S [--from I] [--left port] [--right oracle] [--reports K]');
  process.exit(2);
}

const [left, right] = [await loadPlugin(leftName), await loadPlugin(rightName)];
const chunk = 5000;
let total = { sessions: 0, calls: 0, pools: 0, pooledCalls: 0, badConfigs: 0, mismatches: 0, ms: 0 };
const coverage = new Map<string, number>();
const ids: string[] = [];
const texts: string[] = [];
for (let start = from; start < from + sessions; start += chunk) {
  const n = Math.min(chunk, from + sessions - start);
  const stats = await runParity({ left, right, leftName, rightName, sessions: n, seed, from: start, reports: Math.max(0, reports - texts.length), observe: { details }, pools, ...(stopAfter !== undefined ? { stopAfter: stopAfter - total.mismatches } : {}) });
  total = {
    sessions: total.sessions + stats.sessions,
    calls: total.calls + stats.calls,
    pools: total.pools + stats.pools,
    pooledCalls: total.pooledCalls + stats.pooledCalls,
    badConfigs: total.badConfigs + stats.badConfigs,
    mismatches: total.mismatches + stats.mismatches,
    ms: total.ms + stats.ms,
  };
  ids.push(...stats.mismatchIds);
  for (const [key, value] of Object.entries(stats.coverage)) coverage.set(key, (coverage.get(key) ?? 0) + value);
  texts.push(...stats.reports.map((r) => r.text));
  if (stopAfter !== undefined && total.mismatches >= stopAfter) break;
  if (sessions > chunk) console.error(`… ${total.sessions}/${sessions} sessions, ${total.mismatches} mismatches, ${(total.ms / 1000).toFixed(1)} s`);
}

if (texts.length > 0) {
  console.log(REPRO_IMPORTS);
  console.log('');
  for (const text of texts) console.log(`${text}\n`);
}
console.log(`${leftName} vs ${rightName}: seed ${seed}, sessions ${total.sessions} (from ${from}), calls ${total.calls} (${total.pooledCalls} in ${total.pools} pools), bad configs ${total.badConfigs}, mismatches ${total.mismatches}, wall ${(total.ms / 1000).toFixed(1)} s`);
console.log(`coverage (${rightName}): ${[...coverage].map(([k, v]) => `${k} ${v}`).join(', ')}`);
if (ids.length > 0) console.log(`mismatching sessions: ${ids.slice(0, 20).join(' ')}${ids.length > 20 ? ' …' : ''}`);
process.exit(total.mismatches > 0 ? 1 : 0);
