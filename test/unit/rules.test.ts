/**
 * Rule sets (docs/rules.md): each condition kind holds and misses, the first match wins, the
 * split bucket is stable, variants change only what they name, and links come from the design.
 */
import { describe, expect, it } from 'vitest';
import { restoreDesign } from '#shared/design.ts';
import {
  applyRuleVariant,
  conditionHolds,
  matchRule,
  RuleConditionSchema,
  RulesSchema,
  ruleLinkUrl,
  splitBucket,
  type RuleCondition,
  type RuleContext,
} from '#shared/scene/rules.ts';

/** Tuesday 2026-11-24 12:00 UTC (13:00 in Paris, 07:00 in New York). */
const NOW = Date.UTC(2026, 10, 24, 12, 0);
const context = (extra: Partial<RuleContext> = {}): RuleContext => ({
  nowMs: NOW,
  values: {},
  bucket: 42,
  ...extra,
});
const cond = (raw: Record<string, unknown>): RuleCondition => RuleConditionSchema.parse(raw);

describe('conditions', () => {
  it('time window: inside holds, before and after miss, in the given time zone', () => {
    const paris = { kind: 'time_window', time_zone: 'Europe/Paris' };
    expect(
      conditionHolds(
        cond({ ...paris, start: '2026-11-24T13:00', end: '2026-11-24T14:00' }),
        context(),
      ),
    ).toBe(true);
    expect(
      conditionHolds(cond({ ...paris, start: '2026-11-24T13:01', end: null }), context()),
    ).toBe(false);
    expect(
      conditionHolds(cond({ ...paris, start: null, end: '2026-11-24T13:00' }), context()),
    ).toBe(false);
    expect(
      conditionHolds(
        cond({ kind: 'time_window', start: '2026-11-24T12:00', time_zone: 'UTC' }),
        context(),
      ),
    ).toBe(true);
  });

  it('day of week: today in the zone holds, another day misses', () => {
    expect(
      conditionHolds(cond({ kind: 'day_of_week', days: [2], time_zone: 'UTC' }), context()),
    ).toBe(true);
    expect(
      conditionHolds(cond({ kind: 'day_of_week', days: [0, 6], time_zone: 'UTC' }), context()),
    ).toBe(false);
    // 23:30 Tuesday in UTC is already Wednesday in Tokyo.
    const late = context({ nowMs: Date.UTC(2026, 10, 24, 23, 30) });
    expect(
      conditionHolds(cond({ kind: 'day_of_week', days: [3], time_zone: 'Asia/Tokyo' }), late),
    ).toBe(true);
  });

  it('device and OS: a known one holds, another or an unknown one misses', () => {
    const device = cond({ kind: 'device', devices: ['mobile'] });
    expect(conditionHolds(device, context({ device: 'mobile' }))).toBe(true);
    expect(conditionHolds(device, context({ device: 'desktop' }))).toBe(false);
    expect(conditionHolds(device, context())).toBe(false);
    const os = cond({ kind: 'os', systems: ['ios', 'android'] });
    expect(conditionHolds(os, context({ os: 'android' }))).toBe(true);
    expect(conditionHolds(os, context({ os: 'windows' }))).toBe(false);
    expect(conditionHolds(os, context())).toBe(false);
  });

  it('country: listed holds (codes read upper case), another or unknown misses', () => {
    const country = cond({ kind: 'country', countries: ['fr', 'BE'] });
    expect(conditionHolds(country, context({ country: 'FR' }))).toBe(true);
    expect(conditionHolds(country, context({ country: 'DE' }))).toBe(false);
    expect(conditionHolds(country, context())).toBe(false);
  });

  it('e-mail client: the listed proxy holds, another or none misses', () => {
    const gmail = cond({ kind: 'mail_client', clients: ['gmail'] });
    expect(conditionHolds(gmail, context({ mailClient: 'gmail' }))).toBe(true);
    expect(conditionHolds(gmail, context({ mailClient: 'outlook' }))).toBe(false);
    expect(conditionHolds(gmail, context())).toBe(false);
  });

  it('parameter: equals and contains fold case and space; empty and not_empty', () => {
    const values = { plan: ' Gold ', city: 'Paris' };
    const p = (operator: string, value = '', name = 'plan') =>
      conditionHolds(
        cond({ kind: 'parameter', param_name: name, operator, value }),
        context({ values }),
      );
    expect(p('equals', 'gold')).toBe(true);
    expect(p('equals', 'silver')).toBe(false);
    expect(p('contains', 'OL')).toBe(true);
    expect(p('contains', 'x')).toBe(false);
    expect(p('empty', '', 'missing')).toBe(true);
    expect(p('empty')).toBe(false);
    expect(p('not_empty')).toBe(true);
    expect(p('not_empty', '', 'missing')).toBe(false);
  });

  it('split: the bucket in [from, to) holds, outside misses', () => {
    const split = cond({ kind: 'split', from: 0, to: 50 });
    expect(conditionHolds(split, context({ bucket: 49 }))).toBe(true);
    expect(conditionHolds(split, context({ bucket: 50 }))).toBe(false);
    expect(RuleConditionSchema.safeParse({ kind: 'split', from: 50, to: 50 }).success).toBe(false);
  });

  it('refuses unknown kinds, zones and countries', () => {
    expect(RuleConditionSchema.safeParse({ kind: 'moon' }).success).toBe(false);
    expect(
      RuleConditionSchema.safeParse({ kind: 'day_of_week', days: [1], time_zone: 'Mars/Base' })
        .success,
    ).toBe(false);
    expect(RuleConditionSchema.safeParse({ kind: 'country', countries: ['FRA'] }).success).toBe(
      false,
    );
    expect(RuleConditionSchema.safeParse({ kind: 'country', countries: [] }).success).toBe(false);
  });
});

describe('matching', () => {
  const rules = RulesSchema.parse([
    {
      id: 'fr',
      conditions: [{ kind: 'country', countries: ['FR'] }],
      link_url: 'https://shop.example.com/fr',
    },
    {
      id: 'mobile-fr',
      conditions: [
        { kind: 'device', devices: ['mobile'] },
        { kind: 'country', countries: ['FR'] },
      ],
    },
    { id: 'all', conditions: [] },
  ]);

  it('takes the first rule whose conditions all hold; a rule without conditions always holds', () => {
    expect(matchRule(rules, context({ country: 'FR', device: 'mobile' }))?.id).toBe('fr');
    expect(matchRule(rules, context({ country: 'DE' }))?.id).toBe('all');
    expect(matchRule(rules.slice(0, 2), context({ country: 'DE' }))).toBeUndefined();
  });

  it('refuses repeated ids, non-web links and more than 20 rules', () => {
    expect(RulesSchema.safeParse([{ id: 'a' }, { id: 'a' }]).success).toBe(false);
    expect(RulesSchema.safeParse([{ id: 'a', link_url: 'javascript:alert(1)' }]).success).toBe(
      false,
    );
    expect(
      RulesSchema.safeParse(Array.from({ length: 21 }, (_, i) => ({ id: `r${i}` }))).success,
    ).toBe(false);
  });

  it('puts one recipient in one bucket every time, and spreads recipients', () => {
    const values: Array<[string, string]> = [['email', 'ana@example.com']];
    expect(splitBucket('pub', values)).toBe(splitBucket('pub', [['email', 'ana@example.com']]));
    const buckets = Array.from({ length: 1000 }, (_, i) =>
      splitBucket('pub', [['email', `r${i}@x.io`]]),
    );
    const low = buckets.filter((b) => b < 50).length;
    expect(low).toBeGreaterThan(400);
    expect(low).toBeLessThan(600);
    expect(Math.min(...buckets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...buckets)).toBeLessThan(100);
  });
});

describe('variants and links', () => {
  const doc = restoreDesign({
    image_id: 'i',
    base_image_key: 'k',
    html_link_url: 'https://shop.example.com/',
    hidden_stickers: ['badge'],
    text_snippets: [{ id: 't', text: 'Hello', left: 0, top: 0, width: 100 }],
    graphics_data: [
      { uuid: 'badge', url: 'https://x/b.png', left: 0, top: 0 },
      { uuid: 'logo', url: 'https://x/l.png', left: 0, top: 0 },
    ],
    rules: [
      {
        id: 'sale',
        variant: {
          texts: { t: 'Sale!', gone: 'x' },
          base_image: { image_id: 'j', base_image_key: 'k2' },
          show_stickers: ['badge'],
          hide_stickers: ['logo'],
        },
        link_url: 'https://shop.example.com/sale',
      },
      { id: 'plain' },
    ],
  }).document;

  it('the default hides the hidden stickers and changes nothing else', () => {
    const shown = applyRuleVariant(doc, undefined);
    expect(shown.graphics_data.map((s) => s.uuid)).toEqual(['logo']);
    expect(shown.text_snippets[0]!.text).toBe('Hello');
    expect(shown.base_image_key).toBe('k');
  });

  it('a rule swaps texts and the base photo, shows and hides stickers', () => {
    const shown = applyRuleVariant(doc, doc.rules[0]);
    expect(shown.graphics_data.map((s) => s.uuid)).toEqual(['badge']);
    expect(shown.text_snippets[0]!.text).toBe('Sale!');
    expect([shown.image_id, shown.base_image_key]).toEqual(['j', 'k2']);
    expect(doc.text_snippets[0]!.text).toBe('Hello');
  });

  it("links to the rule's URL, else the design's, else nowhere", () => {
    expect(ruleLinkUrl(doc, doc.rules[0])).toBe('https://shop.example.com/sale');
    expect(ruleLinkUrl(doc, doc.rules[1])).toBe('https://shop.example.com/');
    expect(ruleLinkUrl(doc, undefined)).toBe('https://shop.example.com/');
    expect(ruleLinkUrl({ ...doc, html_link_url: null }, undefined)).toBeUndefined();
    expect(
      ruleLinkUrl({ ...doc, html_link_url: 'javascript:alert(1)' }, undefined),
    ).toBeUndefined();
  });
});
