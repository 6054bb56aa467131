import { readLabelled } from './tools/eval/labelled.js';
import { replayEpisode } from './tools/eval/replay.js';
import { builtPlugin } from './tools/eval/systems.js';
const name = process.argv[2]!;
const ep = readLabelled(`/work/shared/corpus/real-dev/${name}.jsonl`);
const sys = { label: 'o', short: 'o', plugin: 'repeat-tool-breaker', apply: await builtPlugin(), config: { preset: 'recommended', onLimit: 'deny', ...(process.argv[3] ? JSON.parse(process.argv[3]) : {}) }, gates: true };
for (const o of await replayEpisode(ep, sys)) if (o.notices.length || o.denied) console.log(o.index, o.denied ? 'DENIED ' + (o.reason ?? '').split('\n')[0].slice(0, 150) : '', o.notices.join(' | '));
