/**
 * The card's store over a stand-in settings scope: the "Saved." status after a
 * save that landed (and not after one the host refused), the open state of
 * the card and of its folds, which the card reads again when the Settings
 * dialog mounts it anew, and the removal of values settings.yaml holds that
 * the breaker leaves out.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { ScopeSnapshot, SettingsScope } from '../../client/scope.js';
import { createCardStore } from '../../client/store.js';

/** A scope holding one user layer; `refuse` makes every write a no-op, as a host refusal is (not thrown). */
function scope(refuse = false, user: Record<string, unknown> = {}): SettingsScope {
  let snapshot: ScopeSnapshot = { status: 'ready', value: {}, base: {}, user, revision: 1, writable: true };
  const listeners = new Set<() => void>();
  const write = (user: Record<string, unknown>): void => {
    if (refuse) return;
    snapshot = { ...snapshot, user, revision: (snapshot.revision ?? 0) + 1 };
    for (const listener of listeners) listener();
  };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: async (field, value) => write({ ...(snapshot.user as Record<string, unknown>), [field]: value }),
    unset: async (field) => {
      const { [field]: _gone, ...rest } = snapshot.user as Record<string, unknown>;
      write(rest);
    },
  };
}

describe('the Saved status', () => {
  test('a save that landed says Saved, until the next edit', async () => {
    const store = createCardStore(scope());
    store.edit('warnAt', '5');
    assert.equal(store.getSnapshot().saved, false, 'nothing saved yet');
    await store.save();
    assert.deepEqual([store.getSnapshot().saved, store.getSnapshot().form.dirty], [true, false]);
    store.edit('warnAt', '6');
    assert.equal(store.getSnapshot().saved, false, 'a new draft is not saved');
  });

  test('Saved goes once the user layer changes from elsewhere (settings.yaml edited, another browser)', async () => {
    const held = scope();
    const store = createCardStore(held);
    store.edit('warnAt', '5');
    await store.save();
    assert.equal(store.getSnapshot().saved, true);
    await held.set('window', 20);
    assert.equal(store.getSnapshot().saved, false, 'what is saved is no longer what this card saved');
  });

  test('a save the host did not take says it failed, not Saved, and keeps the draft', async () => {
    const store = createCardStore(scope(true));
    store.edit('warnAt', '5');
    await store.save();
    const state = store.getSnapshot();
    assert.deepEqual([state.saved, state.failed, state.form.dirty], [false, true, true]);
  });
});

describe('the open state', () => {
  test('the store remembers whether the card was left open, for the next mount', () => {
    const store = createCardStore(scope());
    assert.equal(store.isExpanded(), false, 'closed at first, as DSH opens its cards');
    store.setExpanded(true);
    assert.equal(store.isExpanded(), true);
    store.setExpanded(false);
    assert.equal(store.isExpanded(), false);
  });
});

describe('the folds', () => {
  test('every fold is closed at first; one opens and closes by itself, and stays as left for the next mount', () => {
    const store = createCardStore(scope());
    assert.deepEqual([...store.getSnapshot().folds], [], 'the rarely touched settings and each track\'s numbers start folded');
    store.setFold('counted');
    store.setFold('stale', true);
    assert.deepEqual([...store.getSnapshot().folds].sort(), ['counted', 'stale']);
    store.setFold('counted');
    assert.deepEqual([...store.getSnapshot().folds], ['stale'], 'a toggle closes it again');
    const before = store.getSnapshot();
    store.setFold('stale', true);
    assert.equal(store.getSnapshot(), before, 'opening an open fold is no change: React is not asked to render again');
  });

  test('a fold is only where fields are shown: the drafts behind a closed fold are kept and saved', async () => {
    const held = scope();
    const store = createCardStore(held);
    store.setFold('counted', true);
    store.edit('window', '20');
    store.setFold('counted', false);
    assert.equal(store.getSnapshot().form.dirty, true);
    await store.save();
    assert.deepEqual(held.getSnapshot().user, { window: 20 });
  });
});

describe('values settings.yaml holds that the breaker leaves out', () => {
  const section = { onlimit: 'deny', window: 2, warnAt: 3 };

  test('each is listed; Remove stages the section without it and Save writes that, the rest kept', async () => {
    const held = scope(false, section);
    const store = createCardStore(held);
    assert.deepEqual(store.getSnapshot().form.dropped.map((d) => [d.path, d.state]), [['onlimit', 'kept'], ['window', 'kept']]);
    store.reset('onlimit');
    store.reset('window');
    assert.deepEqual(store.getSnapshot().form.dropped.map((d) => d.state), ['removed', 'removed']);
    store.revert('window');
    assert.deepEqual(store.getSnapshot().form.dropped.map((d) => d.state), ['removed', 'kept'], 'Keep takes a removal back');
    store.reset('window');
    await store.save();
    assert.deepEqual(held.getSnapshot().user, { warnAt: 3 });
    assert.deepEqual(store.getSnapshot().form.dropped, [], 'nothing left out once they are gone');
    assert.equal(store.getSnapshot().saved, true);
  });

  test('an edit beside them saves and leaves them in settings.yaml, still listed', async () => {
    const held = scope(false, section);
    const store = createCardStore(held);
    store.edit('summarizeAt', '9');
    await store.save();
    assert.deepEqual(held.getSnapshot().user, { ...section, summarizeAt: 9 });
    assert.deepEqual(store.getSnapshot().form.dropped.map((d) => d.path), ['onlimit', 'window']);
  });
});
