/**
 * What a user and the model observe of one call, reduced to the parts that are
 * protocol (contract §5) rather than wording: whether the operator was asked,
 * whether the call was denied, whether its body ran, the denial's leading token
 * and the hits it lists (fingerprint preview plus count), which earlier result it
 * quotes (by a marker each generated result carries), and for each notice its
 * `source` fields and the leading token of its text. Full texts are never
 * compared: the port writes its own words.
 */
import type { CallOutcome } from '../support/fake-host.js';

export interface NoticeView {
  kind: unknown;
  plugin: unknown;
  form: unknown;
  summary: unknown;
  role: unknown;
  /** `id` starts with `repeat-tool-breaker-`. */
  idPrefix: boolean;
  /** The text's leading `TOKEN:` (e.g. `CONVERGENCE_CHECK`), or `(none)`. */
  token: string;
}

export interface CallView {
  asked: boolean;
  denied: boolean;
  ran: boolean;
  /** `REPEAT_TOOL_BLOCKED`, or `host: <the host's approval-denial text>`; null when allowed. */
  denial: string | null;
  /** Hit lines of a denial, sorted: `repeat <fp> <next>/<cap>` or `failure <fp> x<n>` (plus ` [<detail tokens>]` with `details`). */
  hits: string[];
  /** Result markers (`#r<n>`, see results.ts) the denial quotes: which previous result it shows, if any. */
  quotes: string[];
  /** A call the operator did not approve: the hit lines of the breaker's denial after the host's line on its own result (P13), sorted; `[]` for any other call. */
  explained: string[];
  notices: NoticeView[];
}

/** A hit line of the repeat track: `- <fp preview> <next>/<cap>`. */
const REPEAT_LINE = /^- (.+) (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/;
/** A hit line of the failure track: `- <fp preview> — <n> consecutive failures (<description>)`. */
const FAILURE_LINE = /^- (.+?) \u2014 (\d+) consecutive failures(.*)$/;

/**
 * The failure description is worded freely, but must carry the failure's detail
 * (§4.2, §5): an exit status, HTTP code, timeout, signal, error code, exception
 * class or sandbox mode. Those detail-like tokens are compared, not the words.
 */
const DETAIL_TOKEN = /[A-Za-z_][\w.]*(?:Error|Exception)\b|\bSIG[A-Z0-9]+\b|\bE[A-Z][A-Z0-9_]+\b|-?\d+(?:ms)?|\bread-only\b|\bworkspace-write\b/g;

function detailTokens(description: string): string {
  return (description.match(DETAIL_TOKEN) ?? []).join(',');
}

function leadingToken(text: string): string | null {
  const match = /^([A-Z][A-Z0-9_]*):/.exec(text);
  return match === null ? null : (match[1] as string);
}

/** The hit lines a denial lists, in a canonical (sorted) order. */
export function denialHits(text: string, details = false): string[] {
  const hits: string[] = [];
  for (const line of text.split('\n')) {
    const failure = FAILURE_LINE.exec(line);
    if (failure !== null) {
      hits.push(`failure ${failure[1]} x${failure[2]}${details ? ` [${detailTokens(failure[3] as string)}]` : ''}`);
      continue;
    }
    const repeat = REPEAT_LINE.exec(line);
    if (repeat !== null) hits.push(`repeat ${repeat[1]} ${repeat[2]}/${repeat[3]}`);
  }
  return hits.sort();
}

function textOf(notice: any): string {
  const block = Array.isArray(notice?.content) ? notice.content[0] : undefined;
  return typeof block?.text === 'string' ? block.text : '';
}

export function noticeView(notice: any): NoticeView {
  const source = notice?.source ?? {};
  return {
    kind: source.kind,
    plugin: source.plugin,
    form: source.form,
    summary: source.summary,
    role: notice?.role,
    idPrefix: typeof notice?.id === 'string' && notice.id.startsWith('repeat-tool-breaker-'),
    token: leadingToken(textOf(notice)) ?? '(none)',
  };
}

export interface ObserveOptions {
  /**
   * Also compare the detail tokens of failure descriptions (off by default: see
   * docs/parity.md, "Failure details", for the one known difference).
   */
  details?: boolean;
}

export function observe(outcome: CallOutcome, options: ObserveOptions = {}): CallView {
  let denial: string | null = null;
  let hits: string[] = [];
  let quotes: string[] = [];
  let explained: string[] = [];
  if (outcome.denied) {
    const reason = outcome.denyReason ?? '';
    const token = leadingToken(reason);
    denial = token ?? `host: ${reason}`;
    hits = token === null ? [] : denialHits(reason, options.details === true);
    quotes = token === null ? [] : [...new Set(reason.match(/#r\d+\b/g) ?? [])].sort();
    if (token === null) {
      // P13: the breaker's denial follows the host's line on the call's own result.
      const blocks = Array.isArray((outcome.result as any)?.content) ? ((outcome.result as any).content as unknown[]) : [];
      const text = blocks.map((block) => (typeof (block as any)?.text === 'string' ? (block as any).text : '')).join('\n');
      const at = text.indexOf('\nREPEAT_TOOL_BLOCKED:');
      if (at !== -1) explained = denialHits(text.slice(at + 1), options.details === true);
    }
  }
  return {
    asked: outcome.asked,
    denied: outcome.denied,
    ran: outcome.ran,
    denial,
    hits,
    quotes,
    explained,
    notices: outcome.notices.map(noticeView),
  };
}
