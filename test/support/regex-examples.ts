/**
 * Strings drawn from a regular expression, so a generator can take its
 * vocabulary from a pattern table (ours or the reference's) instead of a
 * hand-written list: a range, a tracking key or a classifier marker added to a
 * table is generated the day it is added. Handles the syntax the tables use:
 * literals and escapes, `\d \w \s`, classes with ranges and negation, groups
 * with alternation, `? * + {n} {n,m}`, anchors and lookarounds (skipped; every
 * example is checked against the pattern and redrawn when it fails).
 */

type Node =
  | { kind: 'chars'; pick: (random: () => number) => string }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'empty' };

const DIGITS = '0123456789';
const WORD = `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ${DIGITS}_`;
/** Characters a negated class draws from. */
const PRINTABLE = `${WORD} .-:/@#%+=,`;

const fromSet = (set: string) => (random: () => number) => set[Math.floor(random() * set.length)] as string;

function escapeClass(letter: string): string | null {
  if (letter === 'd') return DIGITS;
  if (letter === 'w') return WORD;
  if (letter === 's') return ' ';
  return null;
}

class Parser {
  private at = 0;

  constructor(private readonly source: string) {}

  parse(): Node[][] {
    const alternatives = this.alternatives();
    if (this.at < this.source.length) throw new Error(`unsupported pattern ${this.source} at ${this.at}`);
    return alternatives;
  }

  private alternatives(): Node[][] {
    const out: Node[][] = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at += 1;
      out.push(this.sequence());
    }
    return out;
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      nodes.push(this.quantified(atom));
    }
    return nodes;
  }

  private quantified(atom: Node): Node {
    const c = this.source[this.at];
    let min = 1;
    let max = 1;
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, 3];
    else if (c === '+') [min, max] = [1, 3];
    else if (c === '{') {
      const match = /^\{(\d+)(?:,(\d*))?\}/.exec(this.source.slice(this.at));
      if (match === null) return atom;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[2] === '' ? min + 2 : Number(match[2]);
      this.at += match[0].length - 1;
    } else return atom;
    this.at += 1;
    if (this.source[this.at] === '?') this.at += 1;
    return { kind: 'repeat', node: atom, min, max };
  }

  private atom(): Node {
    const c = this.source[this.at] as string;
    this.at += 1;
    if (c === '^' || c === '$') return { kind: 'empty' };
    if (c === '.') return { kind: 'chars', pick: fromSet(WORD) };
    if (c === '[') return this.charClass();
    if (c === '(') {
      let lookaround = false;
      if (this.source.startsWith('?:', this.at)) this.at += 2;
      else if (/^\?<?[=!]/.test(this.source.slice(this.at))) {
        lookaround = true;
        this.at += this.source[this.at + 1] === '<' ? 3 : 2;
      }
      const alternatives = this.alternatives();
      if (this.source[this.at] !== ')') throw new Error(`unclosed group in ${this.source}`);
      this.at += 1;
      return lookaround ? { kind: 'empty' } : { kind: 'group', alternatives };
    }
    if (c === '\\') {
      const next = this.source[this.at] as string;
      this.at += 1;
      const set = escapeClass(next);
      if (set !== null) return { kind: 'chars', pick: fromSet(set) };
      if (next === 'b' || next === 'B') return { kind: 'empty' };
      return { kind: 'chars', pick: () => next };
    }
    return { kind: 'chars', pick: () => c };
  }

  private charClass(): Node {
    const negated = this.source[this.at] === '^';
    if (negated) this.at += 1;
    let members = '';
    let first = true;
    while (this.at < this.source.length && (this.source[this.at] !== ']' || first)) {
      first = false;
      let c = this.source[this.at] as string;
      this.at += 1;
      if (c === '\\') {
        const next = this.source[this.at] as string;
        this.at += 1;
        const set = escapeClass(next);
        if (set !== null) {
          members += set;
          continue;
        }
        c = next;
      }
      if (this.source[this.at] === '-' && this.source[this.at + 1] !== ']') {
        const end = this.source[this.at + 1] as string;
        this.at += 2;
        for (let code = c.charCodeAt(0); code <= end.charCodeAt(0); code += 1) members += String.fromCharCode(code);
      } else {
        members += c;
      }
    }
    this.at += 1;
    const set = negated ? [...PRINTABLE].filter((ch) => !members.includes(ch)).join('') : members;
    return { kind: 'chars', pick: fromSet(set) };
  }
}

function emit(nodes: readonly Node[], random: () => number): string {
  let out = '';
  for (const node of nodes) out += emitNode(node, random);
  return out;
}

function emitNode(node: Node, random: () => number): string {
  switch (node.kind) {
    case 'empty':
      return '';
    case 'chars':
      return node.pick(random);
    case 'group':
      return emit(node.alternatives[Math.floor(random() * node.alternatives.length)] as Node[], random);
    case 'repeat': {
      const times = node.min + Math.floor(random() * (node.max - node.min + 1));
      let out = '';
      for (let i = 0; i < times; i += 1) out += emitNode(node.node, random);
      return out;
    }
  }
}

/** Case-insensitive patterns get their letters' case shuffled: the flag is part of the table. */
function shuffleCase(text: string, random: () => number): string {
  return [...text].map((c) => (random() < 0.3 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

/**
 * A string the pattern matches: the whole match, from the start of the pattern
 * to its end, with no surrounding text. Throws when 50 draws all fail, which
 * means the pattern uses syntax this reader does not handle.
 */
export function exampleOf(pattern: RegExp, random: () => number): string {
  const tree = new Parser(pattern.source).parse();
  const tester = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  for (let attempt = 0; attempt < 50; attempt += 1) {
    let text = emit(tree[Math.floor(random() * tree.length)] as Node[], random);
    if (pattern.flags.includes('i')) text = shuffleCase(text, random);
    if (tester.test(text)) return text;
  }
  throw new Error(`could not draw an example of ${pattern}`);
}

/**
 * A near miss of an example: one character moved up or down by one (`172.31.`
 * becomes `172.32.` or `172.30.`), dropped, or doubled. It may still match;
 * what matters is that it sits on the pattern's edge, where a changed range shows.
 */
export function nearMiss(example: string, random: () => number): string {
  if (example.length === 0) return example;
  const at = Math.floor(random() * example.length);
  const code = example.charCodeAt(at);
  const roll = random();
  if (roll < 0.6) return example.slice(0, at) + String.fromCharCode(roll < 0.3 ? code + 1 : Math.max(0x20, code - 1)) + example.slice(at + 1);
  if (roll < 0.8) return example.slice(0, at) + example.slice(at + 1);
  return example.slice(0, at + 1) + example.slice(at);
}
