/**
 * Rule sets of a design (docs/rules.md): ordered rules, the first whose conditions all hold
 * wins, and no match is the default (the design as drawn, its `html_link_url` as the link).
 * A rule shows a variant (other texts, another base photo, stickers hidden or shown) and has
 * its own click-through URL, which `/l/{publicId}` redirects to.
 *
 * Pure and shared: the render service (functions/render/service.ts) and the link endpoint
 * (functions/render/link.ts) evaluate the same rules over the same `RuleContext`, and the
 * editor's preview applies a picked rule with `applyRuleVariant` (test/unit/rules.test.ts).
 *
 * Units: time in ms since the epoch, split ranges in percent (0–100).
 */
import { z } from 'zod';
import type { DesignDocument } from '../design.ts';
import { isTimeZone, zonedInstant } from './countdown.ts';

/** Bounds of a rule set (docs/rules.md "Bounds"): every list is bounded. */
export const RULE_BOUNDS = {
  rules: 20,
  conditionsPerRule: 10,
  listItems: 50,
  countries: 250,
  nameLength: 100,
  valueLength: 255,
  textLength: 1000,
  urlLength: 2048,
} as const;

/** A wall-clock date and time without zone: `YYYY-MM-DDTHH:mm`. */
const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

const timeZone = z
  .string()
  .refine(isTimeZone, 'The time zone must be an IANA name, such as Europe/Paris.')
  .default('UTC');
const wallTime = z
  .string()
  .regex(WALL_TIME, 'The time must be a date and time, YYYY-MM-DDTHH:mm.')
  .nullable()
  .default(null);
const list = <T extends z.ZodType>(item: T, max: number = RULE_BOUNDS.listItems) =>
  z.array(item).min(1, 'Choose at least one.').max(max);

/** Device classes a User-Agent is read as (functions/render/rule-context.ts). */
export const RULE_DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type RuleDevice = (typeof RULE_DEVICES)[number];
/** Operating systems a User-Agent is read as. */
export const RULE_SYSTEMS = ['ios', 'android', 'windows', 'macos', 'linux', 'chromeos'] as const;
export type RuleSystem = (typeof RULE_SYSTEMS)[number];
/** E-mail clients known by their image proxies (functions/render/mail-proxies.ts). */
export const RULE_MAIL_CLIENTS = ['gmail', 'apple', 'outlook', 'yahoo'] as const;
export type RuleMailClient = (typeof RULE_MAIL_CLIENTS)[number];

/**
 * The kinds of sky a weather report reads as (docs/weather.md "Conditions"), from the WMO weather
 * codes the provider answers with (functions/render/weather.ts `skyOfCode`).
 */
export const WEATHER_SKIES = [
  'clear',
  'cloudy',
  'fog',
  'drizzle',
  'rain',
  'snow',
  'storm',
] as const;
export type WeatherSky = (typeof WEATHER_SKIES)[number];

/**
 * The weather at a recipient's place now (docs/weather.md): the sky, the temperature in °C,
 * and the place's name when it was looked up by name.
 */
export interface WeatherReport {
  sky: WeatherSky;
  temperatureC: number;
  place?: string | undefined;
}

/**
 * One condition of a rule (docs/rules.md "Conditions"):
 * - `time_window`: now is at or after `start` and before `end` (wall-clock times in
 *   `time_zone`; a null end is open);
 * - `day_of_week`: today in `time_zone` is one of `days` (0 = Sunday … 6 = Saturday);
 * - `device` / `os`: the User-Agent reads as one of them (unknown: no match);
 * - `country`: the viewer's country (ISO 3166-1 alpha-2, the CDN's viewer-country header) is
 *   one of `countries`;
 * - `mail_client`: the request comes from one of these e-mail clients' image proxies;
 * - `parameter`: the recipient's value of `param_name` `equals` / `contains` `value` (case
 *   folded, trimmed), or is `empty` / `not_empty`;
 * - `split`: the recipient's bucket (0–99, a hash of the design and the recipient's values)
 *   is in [`from`, `to`): a weighted random split that an image and its link agree on;
 * - `weather`: the weather now at the place the parameter `param_name` names (a city, a
 *   postcode or `lat,lon`), or at the reader's place as the CDN reads it when `param_name` is
 *   empty, is one of `skies` (none listed: any) and its temperature (°C) is at least
 *   `min_temp_c` and at most `max_temp_c` (null: no bound). Unknown weather never holds
 *   (docs/weather.md "Conditions").
 */
export const RuleConditionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('time_window'), start: wallTime, end: wallTime, time_zone: timeZone }),
  z.object({
    kind: z.literal('day_of_week'),
    days: list(z.number().int().min(0).max(6), 7),
    time_zone: timeZone,
  }),
  z.object({ kind: z.literal('device'), devices: list(z.enum(RULE_DEVICES), 3) }),
  z.object({ kind: z.literal('os'), systems: list(z.enum(RULE_SYSTEMS), 6) }),
  z.object({
    kind: z.literal('country'),
    countries: list(
      z.string().regex(/^[A-Za-z]{2}$/, 'A country is a two-letter code, such as FR.'),
      RULE_BOUNDS.countries,
    ).transform((codes) => codes.map((c) => c.toUpperCase())),
  }),
  z.object({ kind: z.literal('mail_client'), clients: list(z.enum(RULE_MAIL_CLIENTS), 4) }),
  z.object({
    kind: z.literal('parameter'),
    param_name: z.string().min(1).max(RULE_BOUNDS.nameLength),
    operator: z.enum(['equals', 'contains', 'empty', 'not_empty']).default('equals'),
    value: z.string().max(RULE_BOUNDS.valueLength).default(''),
  }),
  z
    .object({
      kind: z.literal('weather'),
      param_name: z.string().max(RULE_BOUNDS.nameLength).default(''),
      skies: z.array(z.enum(WEATHER_SKIES)).max(WEATHER_SKIES.length).default([]),
      min_temp_c: z.number().min(-100).max(100).nullable().default(null),
      max_temp_c: z.number().min(-100).max(100).nullable().default(null),
    })
    .refine((w) => w.skies.length > 0 || w.min_temp_c !== null || w.max_temp_c !== null, {
      message: 'Choose a sky or a temperature.',
      path: ['skies'],
    })
    .refine((w) => w.min_temp_c === null || w.max_temp_c === null || w.min_temp_c <= w.max_temp_c, {
      message: 'The highest temperature must not be below the lowest.',
      path: ['max_temp_c'],
    }),
  z
    .object({
      kind: z.literal('split'),
      from: z.number().int().min(0).max(100).default(0),
      to: z.number().int().min(0).max(100).default(50),
    })
    .refine((s) => s.from < s.to, { message: 'The split must end after it starts.', path: ['to'] }),
]);
export type RuleCondition = z.output<typeof RuleConditionSchema>;
export type RuleConditionKind = RuleCondition['kind'];

/** Another base photo of a variant: set by the server from an image the team may use. */
export const RuleBaseImageSchema = z.object({
  image_id: z.string().min(1),
  base_image_key: z.string().min(1),
  image_width: z.number().int().positive().nullable().default(null),
  image_height: z.number().int().positive().nullable().default(null),
});

/**
 * What a rule shows (docs/rules.md "Variants"): `texts` replaces the text of the snippets it
 * names (snippet id → text with the snippet's own `{{placeholders}}`), `base_image` replaces the
 * base photo, `show_stickers` shows stickers the design hides by default (`hidden_stickers`),
 * `hide_stickers` hides others (sticker uuids).
 */
export const RuleVariantSchema = z.object({
  texts: z
    .record(z.string().min(1).max(RULE_BOUNDS.nameLength), z.string().max(RULE_BOUNDS.textLength))
    .refine((t) => Object.keys(t).length <= RULE_BOUNDS.listItems, 'Too many texts.')
    .default({}),
  base_image: RuleBaseImageSchema.nullable().default(null),
  show_stickers: z.array(z.string().min(1)).max(RULE_BOUNDS.listItems).default([]),
  hide_stickers: z.array(z.string().min(1)).max(RULE_BOUNDS.listItems).default([]),
});
export type RuleVariant = z.output<typeof RuleVariantSchema>;

/** An absolute http(s) URL of at most 2048 characters. */
export const isRuleLinkUrl = (value: string): boolean => {
  if (value.length > RULE_BOUNDS.urlLength) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** One rule: every condition must hold (none: always); `link_url` null: the design's link. */
export const RuleSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().max(RULE_BOUNDS.nameLength).default(''),
  conditions: z.array(RuleConditionSchema).max(RULE_BOUNDS.conditionsPerRule).default([]),
  variant: RuleVariantSchema.default({
    texts: {},
    base_image: null,
    show_stickers: [],
    hide_stickers: [],
  }),
  link_url: z
    .string()
    .refine(isRuleLinkUrl, 'The link must be an http or https URL.')
    .nullable()
    .default(null),
});
export type Rule = z.output<typeof RuleSchema>;

/**
 * "Optimise for clicks" on a design's random split (docs/optimiser.md "In the product"): the
 * rules with a `split` condition are the variants, and the share of the buckets each gets follows
 * its clicks (the roll-up reweighs, shared/scene/optimised-split.ts); their hand-set ranges are
 * then not used. `min_sample_per_variant` impressions every variant needs before traffic moves
 * (1–100,000), `exploration_floor` the share each always keeps once it does (0–0.5).
 */
export const SplitOptimiserSchema = z.object({
  min_sample_per_variant: z
    .number()
    .int('The minimum sample must be a whole number.')
    .min(1, 'The minimum sample must be at least 1.')
    .max(100_000, 'The minimum sample may not be more than 100,000.')
    .default(100),
  exploration_floor: z
    .number()
    .min(0, 'The exploration floor must be from 0 to 50 %.')
    .max(0.5, 'The exploration floor must be from 0 to 50 %.')
    .default(0.05),
});
export type SplitOptimiser = z.output<typeof SplitOptimiserSchema>;

/** The design's rules: at most 20, ids unique. */
export const RulesSchema = z
  .array(RuleSchema)
  .max(RULE_BOUNDS.rules, `The rules may not have more than ${RULE_BOUNDS.rules} items.`)
  .refine((rules) => new Set(rules.map((r) => r.id)).size === rules.length, 'Rule ids repeat.')
  .default([]);

/**
 * What a request tells the rules (built by functions/render/rule-context.ts from the request;
 * by the editor preview from its own choices):
 * - `nowMs` the moment, ms since the epoch;
 * - `device` / `os` as the User-Agent reads (undefined: unknown);
 * - `country` ISO alpha-2, upper case (undefined: unknown);
 * - `mailClient` the image proxy that asked (undefined: none known);
 * - `values` the recipient's normalised values (declared parameters only), name → value;
 * - `bucket` 0–99, from `splitBucket`;
 * - `weather` the weather looked up for the rules' weather conditions, by the condition's
 *   `param_name` ('' for the reader's place); null or absent: unknown (docs/weather.md);
 * - `splitVariant` for a design that optimises its split (docs/optimiser.md "In the product"):
 *   the rule id the recipient's bucket is assigned to; a `split` condition then holds for that
 *   rule only, whatever its hand-set range. Undefined: the ranges decide.
 */
export interface RuleContext {
  nowMs: number;
  device?: RuleDevice | undefined;
  os?: RuleSystem | undefined;
  country?: string | undefined;
  mailClient?: RuleMailClient | undefined;
  values: Record<string, string>;
  bucket: number;
  weather?: Readonly<Record<string, WeatherReport | null>> | undefined;
  splitVariant?: string | undefined;
}

/**
 * The recipient's split bucket, 0–99: FNV-1a (32 bit) of the design's public id and its values
 * (sorted by name), so the image and the link of one recipient land in the same bucket, and
 * different recipients spread evenly (docs/rules.md "Random splits").
 * @param values the normalised values, sorted by name (service.ts `normaliseValues`).
 */
export function splitBucket(
  publicId: string,
  values: ReadonlyArray<readonly [string, string]>,
): number {
  const input = JSON.stringify([publicId, values]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    hash ^= input.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 100;
}

/** Case-folded, trimmed: how parameter conditions compare. */
const fold = (value: string): string => value.trim().toLowerCase();

/** The weekday (0 = Sunday) of an instant in an IANA zone. */
function weekdayIn(nowMs: number, zone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(nowMs);
  return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(name);
}

/** Whether one condition holds in the context (docs/rules.md "Conditions"). */
export function conditionHolds(condition: RuleCondition, context: RuleContext): boolean {
  switch (condition.kind) {
    case 'time_window': {
      const { start, end, time_zone: zone } = condition;
      if (start !== null && context.nowMs < zonedInstant(start, zone)) return false;
      return end === null || context.nowMs < zonedInstant(end, zone);
    }
    case 'day_of_week':
      return condition.days.includes(weekdayIn(context.nowMs, condition.time_zone));
    case 'device':
      return context.device !== undefined && condition.devices.includes(context.device);
    case 'os':
      return context.os !== undefined && condition.systems.includes(context.os);
    case 'country':
      return context.country !== undefined && condition.countries.includes(context.country);
    case 'mail_client':
      return context.mailClient !== undefined && condition.clients.includes(context.mailClient);
    case 'parameter': {
      const value = fold(context.values[condition.param_name] ?? '');
      if (condition.operator === 'empty') return value === '';
      if (condition.operator === 'not_empty') return value !== '';
      if (condition.operator === 'contains') return value.includes(fold(condition.value));
      return value === fold(condition.value);
    }
    case 'split':
      return context.bucket >= condition.from && context.bucket < condition.to;
    case 'weather': {
      const report = context.weather?.[condition.param_name];
      if (!report) return false;
      if (condition.skies.length > 0 && !condition.skies.includes(report.sky)) return false;
      if (condition.min_temp_c !== null && report.temperatureC < condition.min_temp_c) return false;
      return condition.max_temp_c === null || report.temperatureC <= condition.max_temp_c;
    }
  }
}

/** Places a design's weather conditions look up at most (docs/weather.md "Budgets"). */
export const MAX_WEATHER_PLACES = 3;

/**
 * The places a design's weather conditions look up (docs/weather.md "Conditions"): each
 * condition's `param_name`, '' for the reader's place; at most {@link MAX_WEATHER_PLACES}.
 */
export function weatherPlaces(rules: readonly Rule[]): string[] {
  const names = new Set<string>();
  for (const rule of rules)
    for (const c of rule.conditions) if (c.kind === 'weather') names.add(c.param_name);
  return [...names].slice(0, MAX_WEATHER_PLACES);
}

/**
 * The first rule whose conditions all hold (a rule without conditions always holds), or
 * undefined for the default (docs/rules.md "Order"). With `context.splitVariant` set, a `split`
 * condition holds for that rule only (docs/optimiser.md "In the product").
 */
export function matchRule(rules: readonly Rule[], context: RuleContext): Rule | undefined {
  const assigned = context.splitVariant;
  return rules.find((rule) =>
    rule.conditions.every((c) =>
      c.kind === 'split' && assigned !== undefined
        ? rule.id === assigned
        : conditionHolds(c, context),
    ),
  );
}

/** Whether any rule asks for the condition kind (what the request must tell). */
export const rulesUse = (rules: readonly Rule[], kind: RuleConditionKind): boolean =>
  rules.some((rule) => rule.conditions.some((c) => c.kind === kind));

/**
 * The design as a rule shows it (docs/rules.md "Variants"); undefined is the default: the
 * design's `hidden_stickers` hidden. Pure: returns a new document, `doc` untouched. Texts of
 * snippets the design no longer has, and stickers it no longer has, are ignored.
 */
export function applyRuleVariant(doc: DesignDocument, rule: Rule | undefined): DesignDocument {
  const variant = rule?.variant;
  const shown = new Set(variant?.show_stickers ?? []);
  const hidden = new Set([
    ...doc.hidden_stickers.filter((uuid) => !shown.has(uuid)),
    ...(variant?.hide_stickers ?? []),
  ]);
  const texts = variant?.texts ?? {};
  return {
    ...doc,
    ...(variant?.base_image ?? {}),
    graphics_data: doc.graphics_data.filter((s) => !hidden.has(s.uuid)),
    text_snippets: doc.text_snippets.map((s) => {
      const text = Object.hasOwn(texts, s.id) ? texts[s.id] : undefined;
      return text === undefined ? s : { ...s, text };
    }),
  };
}

/**
 * The click-through URL of a match (docs/rules.md "Links"): the rule's `link_url`, else the
 * design's `html_link_url`; only an http(s) URL stored in the design, never one from the
 * request. undefined when there is none.
 */
export function ruleLinkUrl(doc: DesignDocument, rule: Rule | undefined): string | undefined {
  const url = rule?.link_url ?? doc.html_link_url;
  return url && isRuleLinkUrl(url) ? url : undefined;
}
