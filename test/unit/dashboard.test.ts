/**
 * The dashboard's pure rules (docs/adr/0019-design-api-shapes.md "Design API shapes"): where a
 * clone joins a loaded list (the server's order for each sort, docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA"), the Sort by parameter, the card's date and views lines, and the show page's
 * personalisation hint built from parameter names.
 */
import { describe, expect, it } from 'vitest';
import { designTitleSortKey } from '#lib/db/entities-designs.ts';
import type { DesignCard } from '../../web/src/api/designs.ts';
import { countedLabel, opensLabel } from '../../web/src/features/dashboard/format.ts';
import { formatDay } from '../../web/src/lib/format.ts';
import {
  exampleQuery,
  exampleValue,
  parameterNames,
} from '../../web/src/features/dashboard/personalise.ts';
import { nameKey, placeCard } from '../../web/src/features/dashboard/placeCard.ts';
import { parseSort, parseView } from '../../web/src/features/dashboard/query.ts';

/** A card with the fields the sorts read. */
function card(id: string, fields: Partial<DesignCard> = {}): DesignCard {
  return {
    id,
    public_id: id,
    title: id,
    version: 1,
    status: 'active',
    isTemplate: false,
    counter: 0,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    archived_at: null,
    base_url: '',
    preview_url: '',
    showurl: `/pic-snippet/${id}`,
    editurl: `/pic-snippet/${id}/edit`,
    archiveurl: '',
    unarchiveurl: '',
    ...fields,
  };
}
const ids = (cards: DesignCard[]) => cards.map((c) => c.id);

describe('placeCard: a clone joins the loaded list where the sort puts it', () => {
  const clone = card('Copy of - Kite', {
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
  });

  it('goes first when sorted by last update or creation (it is the newest)', () => {
    const list = [card('Amber'), card('Zebra')];
    expect(ids(placeCard(list, clone, '', true))).toEqual(['Copy of - Kite', 'Amber', 'Zebra']);
    expect(ids(placeCard(list, clone, 'created', true))[0]).toBe('Copy of - Kite');
  });

  it('goes between its neighbours by name, ignoring case', () => {
    const list = [card('amber'), card('Dune'), card('zebra')];
    expect(ids(placeCard(list, clone, 'name', true))).toEqual([
      'amber',
      'Copy of - Kite',
      'Dune',
      'zebra',
    ]);
  });

  it('is left for a later page when it sorts after every loaded card', () => {
    const list = [card('Amber'), card('Bee')];
    expect(ids(placeCard(list, clone, 'name', true))).toEqual(['Amber', 'Bee']);
    expect(ids(placeCard(list, clone, 'name', false))).toEqual(['Amber', 'Bee', 'Copy of - Kite']);
  });

  it('goes after the viewed designs when sorted by views (it has none)', () => {
    const list = [card('Seen', { counter: 5 }), card('Unseen')];
    expect(ids(placeCard(list, clone, 'views', false))).toEqual([
      'Seen',
      'Unseen',
      'Copy of - Kite',
    ]);
  });

  it('orders names as the server does (designTitleSortKey)', () => {
    const titles = ['Zebra', 'élan', 'Elephant', 'apple', '  Spaced   out', 'Ärger', 'eagle'];
    const client = [...titles].sort((a, b) => (nameKey(a) < nameKey(b) ? -1 : 1));
    const server = [...titles].sort((a, b) =>
      designTitleSortKey(a) < designTitleSortKey(b) ? -1 : 1,
    );
    expect(client).toEqual(server);
  });
});

describe('Sort by (spec 000 §2: empty = last updated, created, name, views)', () => {
  it.each([
    [null, ''],
    ['', ''],
    ['created', 'created'],
    ['name', 'name'],
    ['views', 'views'],
    ['updated', ''],
    ['NAME', ''],
  ])('sortby=%s → %o', (value, expected) => {
    expect(parseSort(value)).toBe(expected);
  });
});

describe('view (Active, Archive, View Templates)', () => {
  it('reads the view, and takes the active list for anything else', () => {
    expect(parseView('archived')).toBe('archived');
    expect(parseView('templates')).toBe('templates');
    expect(parseView(null)).toBe('active');
    expect(parseView('bundles')).toBe('active');
  });
});

describe('card lines', () => {
  it('writes the created day as "22 Nov 2026", and nothing for a bad date', () => {
    expect(formatDay('2026-11-22T12:00:00.000Z')).toBe('22 Nov 2026');
    expect(formatDay('')).toBe('');
    expect(formatDay('not a date')).toBe('');
  });

  it('counts opens in words, as the design and analytics pages call them', () => {
    expect(opensLabel(0)).toBe('0 opens');
    expect(opensLabel(1)).toBe('1 open');
    expect(opensLabel(1234)).toBe('1,234 opens');
  });

  it('says how fresh the counts are', () => {
    const now = new Date('2026-03-10T12:30:00Z');
    expect(countedLabel(null, now)).toBeNull();
    expect(countedLabel('2026-03-10T12:29:50Z', now)).toBe('counted just now');
    expect(countedLabel('2026-03-10T12:25:00Z', now)).toBe('counted 5 minutes ago');
    expect(countedLabel('2026-03-10T09:30:00Z', now)).toBe('counted 3 hours ago');
    expect(countedLabel('2026-03-01T09:30:00Z', now)).toMatch(/^counted 1 Mar 2026, \d\d:30$/);
  });
});

describe('personalisation hint (show page)', () => {
  const design = {
    text_snippets: [
      {
        parameters: [
          { param_name: 'first_name', param_default_value: 'friend' },
          { param_name: 'city', param_default_value: ' ' },
        ],
      },
      { parameters: [{ param_name: 'first_name', param_default_value: 'there' }] },
      { parameters: [{ param_name: 'promo_code', param_default_value: 'SALE' }] },
    ],
  };

  it('lists each parameter name once, in snippet order', () => {
    expect(parameterNames(design)).toEqual(['first_name', 'city', 'promo_code']);
  });

  it('builds the query a render URL takes, with made-up values', () => {
    expect(exampleQuery(parameterNames(design))).toBe('?first_name=Ann&city=Oslo&promo_code=value');
    expect(exampleQuery(['email', 'last_name', 'company', 'x'], 3)).toBe(
      '?email=ann%40example.com&last_name=Lee&company=Acme',
    );
    expect(exampleQuery([])).toBe('');
  });

  it('gives a first name for name-like parameters but not for last names', () => {
    expect(exampleValue('FirstName')).toBe('Ann');
    expect(exampleValue('name')).toBe('Ann');
    expect(exampleValue('surname')).toBe('Lee');
  });
});
