import { drive, loadPlugin, prepare, usableSessions, withPreset } from './tools/bench/sessions.js';
import { cloneData } from './test/parity/session.js';
import { captureHooks } from './test/robustness/hooks.js';
const plugin = await loadPlugin(process.env.REF === "1" ? "reference-breaker" : (process.env.DIST ?? "file:///work/main/dist/index.js"));
const reference = await loadPlugin('reference-breaker');
const sessions = usableSessions(300, [plugin, reference]);
const preset = process.env.PRESET === '1';
const GC = process.env.GC === '1';
const KEEP = process.env.KEEP === '1';
const alive: unknown[] = [];
const per: string[] = [];
for (let r = 0; r < Number(process.env.ROUNDS ?? 8); r++) {
  const steps = sessions.map((s) => prepare(s));
  if (GC) (globalThis as { gc?: () => void }).gc?.();
  let ms = 0, calls = 0;
  for (const [i, s] of sessions.entries()) {
    const cfg = cloneData(s.config);
    const hooks = captureHooks(plugin, preset ? withPreset(cfg) : cfg);
    const agents = Array.from({ length: s.agents }, (_, k) => ({ id: k }));
    const run = await drive(hooks, steps[i]!, agents);
    if (KEEP && r === 0) alive.push(hooks, agents, steps[i]); else hooks.dispose();
    ms += run.ms; calls += run.calls;
  }
  per.push((ms * 1000 / calls).toFixed(1));
}
console.log(`ref=${process.env.REF ?? 0} preset=${preset} gc=${GC} keep=${KEEP}`, per.join(' '));
