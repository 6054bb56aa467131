/**
 * The browser half of dsh-repeat-tool-breaker: a card under Settings →
 * Plugins → Plugin configuration, keyed on the `repeat-tool-breaker` settings
 * namespace the host half registers. DSH's Plugins tab shows it only while the
 * host serves that namespace, so a deployment without the settings service
 * shows nothing rather than a dead card.
 *
 * Its language is the page's: where DSH's locale service is up, the card
 * registers its dictionaries there and follows `locale/change`; without it,
 * the card is in English (locale.ts).
 */
import { BreakerCard, CardBoundary } from './card.js';
import type { ClientContext } from './host.js';
import { isPlainObject } from './layers.js';
import { followLocale } from './locale.js';
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
  followLocale(ctx, NAMESPACE, store);
  const Card = () => (
    <CardBoundary words={store.words}>
      <BreakerCard store={store} />
    </CardBoundary>
  );
  ctx.slots.inject(SLOT, () => ctx.slots.register({ name: SLOT, key: NAMESPACE }, Card));
}
