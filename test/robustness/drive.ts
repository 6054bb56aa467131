/**
 * Drives one call through the four captured hooks the way the host does
 * (pre-execute → approval → guard → post-execute) and checks that every
 * decision is well-formed. Any throw or rejection propagates to the test.
 */
import assert from 'node:assert/strict';
import type { Hooks } from './hooks.js';

/** Longest text a decision may carry: 197 hit lines of a 400-character preview, with room to spare. */
export const TEXT_LIMIT = 200_000;

export interface Outcome {
  asked: boolean;
  denial: string | undefined;
  notices: Notice[];
}

interface Notice {
  id: string;
  role: string;
  content: { type: string; text: string }[];
  source: { kind: string; plugin: string; form: string; summary: string };
}

function checkText(text: unknown, what: string, previewChars: number): asserts text is string {
  assert.equal(typeof text, 'string', `${what} is a string`);
  const value = text as string;
  assert.ok(value.length > 0 && value.length <= TEXT_LIMIT, `${what} has a sane length (${value.length})`);
  assert.ok(!/<tool_call>|<function=/.test(value), `${what} carries no tool-call markup`);
  // Quoted fingerprints follow the preview rule: one hit line never exceeds the cap by more than its frame.
  for (const line of value.split('\n')) {
    if (line.startsWith('- ')) assert.ok(line.length <= previewChars + 200, `${what}: a hit line of ${line.length} chars`);
  }
}

export function checkNotice(value: unknown, previewChars: number): Notice {
  const notice = value as Notice;
  assert.ok(Object.isFrozen(notice) && Object.isFrozen(notice.content) && Object.isFrozen(notice.source), 'a notice is frozen');
  assert.ok(notice.id.startsWith('repeat-tool-breaker-'), 'notice id');
  assert.equal(notice.role, 'user');
  assert.equal(notice.content.length, 1);
  assert.equal(notice.content[0]?.type, 'text');
  checkText(notice.content[0]?.text, 'notice text', previewChars);
  assert.ok(notice.content[0].text.startsWith('CONVERGENCE_CHECK:'), 'notice token');
  assert.equal(notice.source.kind, 'plugin');
  assert.equal(notice.source.plugin, 'repeat-tool-breaker');
  assert.equal(notice.source.form, 'notice');
  assert.ok(typeof notice.source.summary === 'string' && notice.source.summary.length <= 120, 'summary within 120 chars (P7)');
  return notice;
}

export interface DriveOptions {
  answer?: 'approve' | 'decline';
  previewChars?: number;
}

export async function drive(hooks: Hooks, exec: unknown, result: unknown, options: DriveOptions = {}): Promise<Outcome> {
  const previewChars = options.previewChars ?? 400;
  const gate = (await hooks.pre(exec)) as { kind?: unknown; reason?: unknown };
  assert.ok(gate !== null && typeof gate === 'object', 'pre-execute resolves to a decision');
  assert.ok(gate.kind === 'allow' || gate.kind === 'ask', `pre-execute decision kind ${String(gate.kind)}`);
  const asked = gate.kind === 'ask';
  if (asked) {
    checkText(gate.reason, 'ask reason', previewChars);
    assert.ok(gate.reason.includes('Allow once') && gate.reason.includes('Reject'), 'the ask says what each button does, in its words');
  }
  let denial: string | undefined;
  if (asked && options.answer === 'decline') {
    denial = 'the user rejected the tool';
  } else {
    const verdict = hooks.guard(exec);
    if (verdict !== undefined) {
      checkText(verdict, 'denial', previewChars);
      assert.ok(verdict.startsWith('REPEAT_TOOL_BLOCKED:'), 'denial token');
      denial = verdict;
    }
  }
  const seen = denial === undefined ? result : { isError: true, content: [{ type: 'text', text: `Error: ${denial}` }], error: { message: denial } };
  const post = (await hooks.post(exec, seen)) as { kind?: unknown; additionalContexts?: unknown };
  assert.equal(post.kind, 'accept', 'post-execute keeps the downstream decision');
  const notices: Notice[] = [];
  if (post.additionalContexts !== undefined) {
    assert.ok(Array.isArray(post.additionalContexts), 'additionalContexts is an array');
    for (const entry of post.additionalContexts) notices.push(checkNotice(entry, previewChars));
  }
  return { asked, denial, notices };
}
