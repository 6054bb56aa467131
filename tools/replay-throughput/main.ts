/**
 * `npm run replay-throughput -- [corpus dir] [--rounds N] [--synthetic SESSIONS]`
 *
 * How fast the replay goes, in calls per second: the corpus read once and
 * replayed N times (replay only), the corpus read and replayed end to end
 * (zstd decoding included), and a synthetic corpus of many larger sessions
 * (a stuck loop, a paging crawl and ordinary work, interleaved) to show the
 * rate holds as sessions grow. Numbers go to docs/thresholds.md.
 */
import { parseArgs } from 'node:util';
import { replaySession } from '../lib/replay.js';
import { collectLogFiles, parseSessionLog, readSessionLog, type SessionLog } from '../lib/session-log.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '20' }, synthetic: { type: 'string', default: '200' } },
});
const rounds = Number(values.rounds);
const syntheticSessions = Number(values.synthetic);
const corpus = positionals[0] ?? 'test/fixtures/sessions';

function seconds(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e9;
}

async function replayAll(logs: readonly SessionLog[]): Promise<number> {
  let calls = 0;
  for (const log of logs) calls += (await replaySession(log)).calls;
  return calls;
}

/** One synthetic session of `calls` calls: work, a loop, a crawl, each a third. */
function syntheticLog(index: number, calls: number): SessionLog {
  const lines: string[] = [JSON.stringify({ type: 'session', version: 0, id: `synthetic-${index}`, createdAt: 0 })];
  let seq = 0;
  const push = (type: string, data: unknown): void => {
    lines.push(JSON.stringify({ type, seq: seq++, time: 0, data }));
  };
  for (let at = 0; at < calls; at += 1) {
    const kind = at % 3;
    const command =
      kind === 0
        ? `grep -rn symbol${at} src`
        : kind === 1
          ? 'npm test -- --grep flaky'
          : `curl -sS "https://api.example.com/items?page=${at}"`;
    const callId = `c${at}`;
    push('tool/call', { turn: 1, step: at, callId, name: 'bash', arguments: JSON.stringify({ command, description: `step ${at}` }) });
    const text = kind === 1 ? 'FAIL test/flaky.test.ts\n[exit code: 1]' : `result ${at}\n`;
    push('tool/result', {
      turn: 1,
      step: at,
      message: { role: 'user', content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError: false }] },
    });
    if (at % 50 === 49) push('user/message', { role: 'user', content: [{ type: 'text', text: 'keep going' }], source: { kind: 'user' } });
  }
  return parseSessionLog(`/synthetic/${index}/session.jsonl`, `${lines.join('\n')}\n`);
}

const files = collectLogFiles([corpus]);
let started = process.hrtime.bigint();
const logs = files.map((file) => readSessionLog(file));
const readTime = seconds(started);
const corpusCalls = await replayAll(logs);

// Warm-up rounds, uncounted: the first replays pay for compilation, not for replaying.
for (let round = 0; round < 5; round += 1) await replayAll(logs);
started = process.hrtime.bigint();
let replayed = 0;
for (let round = 0; round < rounds; round += 1) replayed += await replayAll(logs);
const replayTime = seconds(started);

started = process.hrtime.bigint();
let endToEnd = 0;
for (const file of files) endToEnd += (await replaySession(readSessionLog(file))).calls;
const endToEndTime = seconds(started);

const synthetic = Array.from({ length: syntheticSessions }, (_, index) => syntheticLog(index, 300));
started = process.hrtime.bigint();
const syntheticCalls = await replayAll(synthetic);
const syntheticTime = seconds(started);

const rate = (calls: number, time: number): string => `${Math.round(calls / time).toLocaleString('en-US')} calls/s`;
console.log(`node ${process.version}, ${files.length} corpus files, ${corpusCalls} calls`);
console.log(`corpus, read and decoded once:      ${(readTime * 1000).toFixed(0)} ms`);
console.log(`corpus, replay only x${rounds} (warm):  ${replayed} calls in ${replayTime.toFixed(2)} s = ${rate(replayed, replayTime)}`);
console.log(`corpus, read + decode + replay:     ${endToEnd} calls in ${endToEndTime.toFixed(2)} s = ${rate(endToEnd, endToEndTime)}`);
console.log(
  `synthetic, ${syntheticSessions} sessions x 300 calls: ${syntheticCalls} calls in ${syntheticTime.toFixed(2)} s = ${rate(syntheticCalls, syntheticTime)}`,
);
