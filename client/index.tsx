/**
 * The browser half of dsh-repeat-tool-breaker: a card under Settings →
 * Plugins → Plugin configuration, keyed on the `repeat-tool-breaker` settings
 * namespace the host half registers. DSH's Plugins tab shows it only while the
 * host serves that namespace, so a deployment without the settings service
 * shows nothing rather than a dead card.
 */
import { BreakerCard, CardBoundary } from './card.js';
import type { ClientContext } from './host.js';
import { isPlainObject } from './layers.js';
import { createCardStore } from './store.js';
import { mountStyle } from './style.js';

/** The settings namespace, spelled here: a browser bundle must not import the host half. */
export const NAMESPACE = 'repeat-tool-breaker';
const PACKAGE = 'dsh-repeat-tool-breaker';
const SLOT = 'settings.plugin.item';

export const inject = ['slots', 'settingsScope'];

export function apply(ctx: ClientContext): void {
  mountStyle(PACKAGE);
  // Our own decode: the card resolves the layers with the breaker's own rules,
  // so it needs only a plain section, not the host's schema rebuilt in the page.
  const scope = ctx.settingsScope.bind({ namespace: NAMESPACE, decode: (value) => (isPlainObject(value) ? value : undefined) });
  const store = createCardStore(scope);
  const Card = () => (
    <CardBoundary>
      <BreakerCard store={store} />
    </CardBoundary>
  );
  ctx.slots.inject(SLOT, () => ctx.slots.register({ name: SLOT, key: NAMESPACE }, Card));
}
