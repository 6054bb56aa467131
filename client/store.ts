/**
 * The card's state over one settings scope: the drafts typed since the last
 * save, the save in flight, and the form view derived from both and the scope
 * snapshot. It is an external store (`getSnapshot` / `subscribe`) so React
 * reads it with `useSyncExternalStore`; the snapshot object is rebuilt only
 * when the scope or a draft changed. It lives as long as the page, so what
 * must outlast the card's component (which the Settings dialog unmounts on
 * every tab change) is kept here: the drafts, whether the card is open, and
 * which of its folds are.
 * It also holds the card's words: a switch of the page's language gives it
 * new ones (`setWords`), and the next snapshot is rendered in them.
 */
import { COPY, type Words } from './copy.js';
import { viewForm, type Draft, type FormView, type Write } from './form.js';
import type { ScopeSnapshot, SettingsScope } from './scope.js';
import { isPlainObject, sameValue, type Layer } from './layers.js';

export interface CardState {
  /** The namespace is served and its section decoded. */
  readonly ready: boolean;
  readonly writable: boolean;
  readonly form: FormView;
  readonly saving: boolean;
  /** The last save did not land as planned (the drafts are kept). */
  readonly failed: boolean;
  /** The last save landed, and nothing was typed since. */
  readonly saved: boolean;
  /** The words the card shows, in the page's language. */
  readonly words: Words;
  /** The folds open now (`caps`, `counted`, a track's key …); every other fold is closed. */
  readonly folds: ReadonlySet<string>;
}

export interface CardStore {
  getSnapshot(): CardState;
  subscribe(listener: () => void): () => void;
  edit(path: string, text: string): void;
  /** Removes from settings.yaml the value the breaker refuses (`key`), or the whole section. */
  fixStored(what: 'key' | 'section'): Promise<void>;
  /** Stages a return to the default (the user layer loses the field on save). */
  reset(path: string): void;
  /** Drops one field's draft. */
  revert(path: string): void;
  discard(): void;
  save(): Promise<void>;
  /** Opens or closes a fold; `open` undefined toggles it. */
  setFold(id: string, open?: boolean): void;
  /** Whether the card was last left open: read when it mounts again. */
  isExpanded(): boolean;
  setExpanded(open: boolean): void;
  /** The card's words from now on (a language switch); the drafts are kept. */
  setWords(words: Words): void;
  words(): Words;
}

const EMPTY: Layer = Object.freeze({});

function layer(value: unknown): Layer {
  return isPlainObject(value) ? value : EMPTY;
}

export function createCardStore(scope: SettingsScope, initialWords: Words = COPY): CardStore {
  let words = initialWords;
  const drafts = new Map<string, Draft>();
  const listeners = new Set<() => void>();
  let saving = false;
  let failed = false;
  let saved = false;
  /** The user layer as a landed save left it: "Saved." stands until an edit, or a change from elsewhere. */
  let savedUser: Layer = EMPTY;
  let expanded = false;
  let folds: ReadonlySet<string> = new Set();
  let version = 0;
  let cached: { scope: ScopeSnapshot; version: number; state: CardState } | undefined;

  const publish = (): void => {
    version += 1;
    for (const listener of [...listeners]) listener();
  };

  const getSnapshot = (): CardState => {
    const snapshot = scope.getSnapshot();
    if (cached !== undefined && cached.scope === snapshot && cached.version === version) return cached.state;
    const state: CardState = {
      ready: snapshot.status === 'ready',
      writable: snapshot.writable,
      form: viewForm(layer(snapshot.base), layer(snapshot.user), drafts, words, snapshot.value),
      saving,
      failed,
      saved,
      words,
      folds,
    };
    cached = { scope: snapshot, version, state };
    return state;
  };

  const stageDraft = (path: string, draft: Draft | undefined): void => {
    if (draft === undefined) drafts.delete(path);
    else drafts.set(path, draft);
    failed = false;
    saved = false;
    publish();
  };

  /** Writes one top-level field at a time; whether the user layer then holds what was written (the host is the authority). */
  const run = async (writes: readonly Write[]): Promise<boolean> => {
    if (saving || writes.length === 0) return false;
    saving = true;
    failed = false;
    saved = false;
    publish();
    try {
      for (const write of writes) {
        if (write.value === undefined) await scope.unset(write.key);
        else await scope.set(write.key, write.value);
      }
    } finally {
      const user = layer(scope.getSnapshot().user);
      const landed = writes.every((w) => (w.value === undefined ? !Object.hasOwn(user, w.key) : sameValue(user[w.key], w.value)));
      saving = false;
      failed = !landed;
      saved = landed;
      savedUser = user;
    }
    return saved;
  };

  scope.subscribe(() => {
    if (saved && !saving && !sameValue(layer(scope.getSnapshot().user), savedUser)) saved = false;
    publish();
  });

  return {
    getSnapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    edit: (path, text) => stageDraft(path, { kind: 'text', text }),
    reset: (path) => stageDraft(path, { kind: 'reset' }),
    revert: (path) => stageDraft(path, undefined),
    discard() {
      if (drafts.size === 0 && !failed && !saved) return;
      drafts.clear();
      failed = false;
      saved = false;
      publish();
    },
    async save() {
      const { form } = getSnapshot();
      if (form.invalid || form.writes.length === 0) return;
      if (await run(form.writes)) drafts.clear();
      publish();
    },
    async fixStored(what) {
      const { stored } = getSnapshot().form;
      if (stored === undefined) return;
      await run(what === 'key' ? stored.fix : stored.clear);
      publish();
    },
    setFold(id, open) {
      const next = new Set(folds);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      if (next.size === folds.size && [...next].every((fold) => folds.has(fold))) return;
      folds = next;
      publish();
    },
    isExpanded: () => expanded,
    setExpanded(open) {
      expanded = open;
    },
    setWords(next) {
      if (next === words) return;
      words = next;
      publish();
    },
    words: () => words,
  };
}
