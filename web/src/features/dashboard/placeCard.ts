/**
 * Where a new card goes in a loaded dashboard list (a clone, docs/adr/0018-design-lists.md "Design
 * lists": "Clone creates a new design"), by the list's sort (docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA"; the server's order, functions/designs/lists.ts).
 */
import type { DesignCard, DesignSort } from '../../api/designs.ts';

/** The order key of each sort (functions/designs/lists.ts): true when `a` comes before `b`. */
const BEFORE: Record<DesignSort, (a: DesignCard, b: DesignCard) => boolean> = {
  '': (a, b) => a.updated_at > b.updated_at,
  created: (a, b) => a.created_at > b.created_at,
  name: (a, b) => nameKey(a.title) < nameKey(b.title),
  views: (a, b) => a.counter > b.counter,
};

/**
 * The title as the server's name sort compares it (`designTitleSortKey` of
 * functions/lib/db/entities.ts): no accents, lower case, spaces folded.
 */
export const nameKey = (title: string) =>
  title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The loaded cards with `card` (a new clone) where the list's sort puts it; left out when
 * it belongs after the loaded cards and later pages exist (it will come with them).
 */
export function placeCard(
  cards: DesignCard[],
  card: DesignCard,
  sort: DesignSort,
  hasMore: boolean,
): DesignCard[] {
  const at = cards.findIndex((other) => BEFORE[sort](card, other));
  if (at === -1) return hasMore ? cards : [...cards, card];
  return [...cards.slice(0, at), card, ...cards.slice(at)];
}
