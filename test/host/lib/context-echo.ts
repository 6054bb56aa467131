/**
 * A stand-in for a retrieval or memory plugin that re-attaches the same large
 * context to every tool result (`tools/post-execute` → `additionalContexts`,
 * the channel `@deepseek-ai/dsh-repeat-tool-reminder` uses for its reminders).
 * The agent loop stages those contexts in the next-step inbox and claims them
 * at the next `agent/pre-step`: a repeated large context injection, the case
 * the duplicated-context track is for.
 */

export const CONTEXT_ECHO = 'context-echo';

/** About 3 KB of notes, the same every time. */
export const NOTES = Array.from(
  { length: 40 },
  (_, i) => `note ${i + 1}: the staging database is read-only on weekends; deploys go through make release.`,
).join('\n');

/** The plugin as an ES module source, for a cordis row whose `name` is its absolute path (full boot). */
export function contextEchoModule(): string {
  return [
    "import { randomUUID } from 'node:crypto';",
    `const NOTES = ${JSON.stringify(NOTES)};`,
    `export const name = ${JSON.stringify(CONTEXT_ECHO)};`,
    "export const inject = ['tools'];",
    'export const apply = (ctx) => {',
    "  ctx.on('tools/post-execute', async (_exec, _result, next) => {",
    '    const downstream = await next();',
    "    const content = Object.freeze([Object.freeze({ type: 'text', text: NOTES })]);",
    `    const source = Object.freeze({ kind: 'plugin', plugin: ${JSON.stringify(CONTEXT_ECHO)} });`,
    "    const notes = Object.freeze({ id: randomUUID(), role: 'user', content, source });",
    '    return { ...downstream, additionalContexts: [...(downstream.additionalContexts ?? []), notes] };',
    '  });',
    '};',
    'export default { name, inject, apply };',
    '',
  ].join('\n');
}
