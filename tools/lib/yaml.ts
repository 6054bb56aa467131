/**
 * A reader for the small part of YAML a plugin config uses, so the tools keep
 * zero dependencies: block mappings and sequences by indentation (`- key: v`
 * items included), flow sequences and mappings of scalars on one line
 * (`[a, b]`, `{}`), plain, single- and double-quoted scalars, `null`/`~`,
 * booleans, numbers and `#` comments. Anchors, tags, multi-line scalars and
 * multiple documents are refused with the line number, not guessed at.
 */

export class YamlError extends Error {
  override readonly name = 'YamlError';
}

interface Line {
  readonly number: number;
  readonly indent: number;
  readonly text: string;
}

/** Drops a comment: `#` at the start or after a space, outside quotes. */
function stripComment(text: string): string {
  let quote: string | null = null;
  for (let at = 0; at < text.length; at += 1) {
    const ch = text[at];
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"') at += 1;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (at === 0 || text[at - 1] === ' ' || text[at - 1] === '\t')) return text.slice(0, at);
  }
  return text;
}

function linesOf(source: string): Line[] {
  const lines: Line[] = [];
  source.split(/\r?\n/).forEach((raw, index) => {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '' || text === '---') return;
    if (/^\s*\t/.test(text)) throw new YamlError(`line ${index + 1}: tabs cannot indent YAML`);
    if (text === '...' || /^\s*[&*!|>]/.test(text))
      throw new YamlError(`line ${index + 1}: this reader does not support ${JSON.stringify(text.trim().slice(0, 12))}`);
    const indent = text.length - text.trimStart().length;
    lines.push({ number: index + 1, indent, text: text.trimStart() });
  });
  return lines;
}

/** Splits `key: rest` (key plain or quoted); `undefined` when the text is not a mapping entry. */
function splitEntry(text: string, line: number): [string, string] | undefined {
  if (text.startsWith('"') || text.startsWith("'")) {
    const close = closingQuote(text, 0);
    if (close < 0) throw new YamlError(`line ${line}: unterminated quoted key`);
    const rest = text.slice(close + 1);
    if (!rest.startsWith(':')) return undefined;
    return [scalar(text.slice(0, close + 1), line) as string, rest.slice(1).trim()];
  }
  const match = /^([^\s:[\]{},][^:]*?)\s*:(?:\s+(.*))?$/.exec(text);
  if (match === null || match[1] === undefined) return undefined;
  return [match[1], (match[2] ?? '').trim()];
}

function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let at = open + 1; at < text.length; at += 1) {
    if (quote === '"' && text[at] === '\\') at += 1;
    else if (text[at] === quote) {
      if (quote === "'" && text[at + 1] === "'") at += 1;
      else return at;
    }
  }
  return -1;
}

/** Splits a flow collection's body on top-level commas. */
function flowItems(body: string, line: number): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < body.length; at += 1) {
    const ch = body[at];
    if (ch === '"' || ch === "'") {
      at = closingQuote(body, at);
      if (at < 0) throw new YamlError(`line ${line}: unterminated quoted string`);
    } else if (ch === '[' || ch === '{') depth += 1;
    else if (ch === ']' || ch === '}') depth -= 1;
    else if (ch === ',' && depth === 0) {
      items.push(body.slice(start, at).trim());
      start = at + 1;
    }
  }
  const last = body.slice(start).trim();
  if (last !== '' || items.length > 0) items.push(last);
  return items;
}

function scalar(text: string, line: number): unknown {
  if (text.startsWith('"')) {
    if (closingQuote(text, 0) !== text.length - 1) throw new YamlError(`line ${line}: text after a quoted string`);
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new YamlError(`line ${line}: bad escape in ${text}`);
    }
  }
  if (text.startsWith("'")) {
    if (closingQuote(text, 0) !== text.length - 1) throw new YamlError(`line ${line}: text after a quoted string`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text.startsWith('[') || text.startsWith('{')) {
    const close = text.startsWith('[') ? ']' : '}';
    if (!text.endsWith(close)) throw new YamlError(`line ${line}: a flow collection must close on its line`);
    const items = flowItems(text.slice(1, -1), line);
    if (close === ']') return items.map((item) => scalar(item, line));
    const map: Record<string, unknown> = {};
    for (const item of items) {
      const entry = splitEntry(item, line);
      if (entry === undefined) throw new YamlError(`line ${line}: ${JSON.stringify(item)} is not a key: value pair`);
      map[entry[0]] = scalar(entry[1], line);
    }
    return map;
  }
  if (/^[&*!|>%@`]/.test(text))
    throw new YamlError(
      `line ${line}: this reader does not support ${JSON.stringify(text.slice(0, 12))} (anchors, aliases, tags, block scalars)`,
    );
  if (text === '' || text === '~' || text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?(\d[\d_]*)(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text.replace(/_/g, ''));
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return text;
}

class Parser {
  private at = 0;
  constructor(private readonly lines: Line[]) {}

  parse(): unknown {
    if (this.lines.length === 0) return null;
    const value = this.block(this.lines[0]?.indent ?? 0);
    const extra = this.lines[this.at];
    if (extra !== undefined) throw new YamlError(`line ${extra.number}: unexpected indentation`);
    return value;
  }

  private block(indent: number): unknown {
    const first = this.lines[this.at];
    if (first === undefined) return null;
    return first.text === '-' || first.text.startsWith('- ') ? this.sequence(first.indent) : this.mapping(indent);
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.lines[this.at]; line !== undefined && line.indent === indent; line = this.lines[this.at]) {
      if (!(line.text === '-' || line.text.startsWith('- '))) break;
      const rest = line.text.slice(1).trimStart();
      if (rest === '') {
        this.at += 1;
        const next = this.lines[this.at];
        items.push(next !== undefined && next.indent > indent ? this.block(next.indent) : null);
      } else if (splitEntry(rest, line.number) !== undefined || rest.startsWith('- ')) {
        // `- key: value` opens a mapping whose keys line up with `key`.
        const inner = indent + (line.text.length - rest.length);
        this.lines[this.at] = { number: line.number, indent: inner, text: rest };
        items.push(this.block(inner));
      } else {
        this.at += 1;
        items.push(scalar(rest, line.number));
      }
    }
    return items;
  }

  private mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (let line = this.lines[this.at]; line !== undefined && line.indent === indent; line = this.lines[this.at]) {
      if (line.text.startsWith('- ')) break;
      const entry = splitEntry(line.text, line.number);
      if (entry === undefined)
        throw new YamlError(`line ${line.number}: expected \`key: value\`, got ${JSON.stringify(line.text.slice(0, 40))}`);
      const [key, rest] = entry;
      if (Object.hasOwn(map, key)) throw new YamlError(`line ${line.number}: duplicate key ${JSON.stringify(key)}`);
      this.at += 1;
      if (rest !== '') {
        map[key] = scalar(rest, line.number);
        continue;
      }
      const next = this.lines[this.at];
      const nested = next !== undefined && (next.indent > indent || (next.indent === indent && next.text.startsWith('- ')));
      map[key] = nested ? this.block(next.indent) : null;
    }
    return map;
  }
}

/** Parses the supported YAML subset. Throws {@link YamlError} naming the line. */
export function parseYaml(source: string): unknown {
  return new Parser(linesOf(source)).parse();
}
