/**
 * What a request tells a design's rules (docs/rules.md "Conditions"), and the design a request
 * is drawn or linked as: the render service and the link endpoint both call `ruledDesign`, so an
 * image and its link agree on the rule (test/integration/render-rules.test.ts).
 *
 * Never the raw headers in a cache key: the render key carries the matched rule's id only
 * (`DesignRecord.ruleKey`, cache-key.ts `renderCacheKey`).
 */
import Bowser from 'bowser';
import type { DesignDocument } from '#shared/design.ts';
import {
  applyRuleVariant,
  matchRule,
  RULE_DEVICES,
  RULE_SYSTEMS,
  rulesUse,
  splitBucket,
  weatherPlaces,
  type Rule,
  type RuleContext,
  type RuleDevice,
  type RuleSystem,
  type WeatherReport,
} from '#shared/scene/rules.ts';
import type { MailProxy } from './mail-proxies.ts';

/** Longest User-Agent read, characters: bowser's patterns then stay cheap. */
const MAX_AGENT_LENGTH = 512;

/** The viewer-country header CloudFront adds when the origin request policy asks for it. */
export const VIEWER_COUNTRY_HEADER = 'cloudfront-viewer-country';
/** The viewer-location headers (degrees) CloudFront adds when asked: weather at the reader's place. */
export const VIEWER_LATITUDE_HEADER = 'cloudfront-viewer-latitude';
export const VIEWER_LONGITUDE_HEADER = 'cloudfront-viewer-longitude';

/** bowser's OS names → the rule's names. */
const SYSTEM_NAMES: Record<string, RuleSystem> = {
  ios: 'ios',
  android: 'android',
  windows: 'windows',
  macos: 'macos',
  linux: 'linux',
  'chrome os': 'chromeos',
};

/**
 * The device class and OS a User-Agent reads as (bowser), both undefined when unknown. A mail
 * proxy's agent says nothing of the reader (Gmail's claims to be Firefox on Windows), so
 * behind a proxy both are unknown (docs/rules.md "Conditions").
 */
export function deviceOf(
  userAgent: string | undefined,
  proxy: MailProxy | undefined,
): { device?: RuleDevice; os?: RuleSystem } {
  if (!userAgent || proxy) return {};
  const parsed = Bowser.parse(userAgent.slice(0, MAX_AGENT_LENGTH));
  const type = parsed.platform.type;
  const os = SYSTEM_NAMES[(parsed.os.name ?? '').toLowerCase()];
  return {
    ...((RULE_DEVICES as readonly string[]).includes(type ?? '')
      ? { device: type as RuleDevice }
      : {}),
    ...(os && (RULE_SYSTEMS as readonly string[]).includes(os) ? { os } : {}),
  };
}

/** The viewer's country from CloudFront's header: two letters, upper case, else undefined. */
export function viewerCountry(header: string | undefined): string | undefined {
  const code = (header ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : undefined;
}

/** A request as the rules read it. */
export interface RuleRequest {
  publicId: string;
  /** The normalised values (service.ts `normaliseValues`), sorted by name. */
  values: Array<[string, string]>;
  nowMs: number;
  userAgent?: string | undefined;
  /** The `CloudFront-Viewer-Country` header (locally: sent by the caller). */
  country?: string | undefined;
  /** The mail proxy the request comes from (mail-proxies.ts), if any. */
  proxy?: MailProxy | undefined;
  /**
   * A rule picked instead of evaluated (the editor's preview, `__preview=1&__rule={id}`;
   * docs/rules.md "Preview"): a rule id, or `default`; an unknown id evaluates as usual.
   */
  pick?: string | undefined;
  /**
   * A design that optimises its split: the rule each bucket shows
   * (shared/scene/optimised-split.ts `splitAssignment`); undefined: the hand-set ranges.
   */
  splitAssignment?: readonly string[] | undefined;
  /** The weather the rules' weather conditions read, by place (service.ts `weatherFor`). */
  weather?: Readonly<Record<string, WeatherReport | null>> | undefined;
}

/** The `RuleContext` of a request. */
export function ruleContextOf(request: RuleRequest): RuleContext {
  const bucket = splitBucket(request.publicId, request.values);
  return {
    nowMs: request.nowMs,
    ...deviceOf(request.userAgent, request.proxy),
    country: viewerCountry(request.country),
    mailClient: request.proxy,
    values: Object.fromEntries(request.values),
    bucket,
    weather: request.weather,
    splitVariant: request.splitAssignment?.[bucket],
  };
}

/** The kinds whose answer depends on the request's headers, not on its URL. */
const PER_VIEWER = ['device', 'os', 'country', 'mail_client'] as const;
/** The kinds whose answer depends on the clock. */
const PER_MOMENT = ['time_window', 'day_of_week'] as const;

/**
 * How shareable a rules design's answer is (docs/adr/0061-rule-sets-and-the-cdn.md "Rule sets and
 * the CDN"): `viewer` when a rule reads the headers (the CDN must not share it; the weather at the
 * reader's place too), `moment` when a rule reads the clock or the weather at a named place (shared
 * a minute), `url` when the URL alone decides (cached as before).
 */
export function rulesScope(rules: readonly Rule[]): 'viewer' | 'moment' | 'url' {
  if (PER_VIEWER.some((kind) => rulesUse(rules, kind))) return 'viewer';
  // The weather at the reader's place reads the viewer-location headers; at a named place, the
  // clock (it changes through the day: docs/weather.md "Caching").
  const weather = weatherPlaces(rules);
  if (weather.includes('')) return 'viewer';
  if (weather.length > 0) return 'moment';
  if (PER_MOMENT.some((kind) => rulesUse(rules, kind))) return 'moment';
  return 'url';
}

/** Variant documents by stored document and rule key: built once, so zod runs once each. */
const variants = new WeakMap<object, Map<string, DesignDocument>>();
/** Most variants kept per document: a rule set has at most 20 rules and a default. */
const MAX_VARIANTS = 32;

/** The key of a match in the render cache key: the rule's id, `default` for none. */
export const ruleKeyOf = (rule: Rule | undefined): string => (rule ? `rule:${rule.id}` : 'default');

/**
 * The rule a request matches and the document it shows (docs/rules.md "Order", "Variants").
 * @param stored the design's stored document object (the cache is keyed by its identity).
 * @param doc that document restored (`parseDesignDocument(stored)`).
 * @returns undefined for a design without rules (drawn and linked exactly as before).
 */
export function ruledDesign(
  stored: unknown,
  doc: DesignDocument,
  request: RuleRequest,
): { rule: Rule | undefined; ruleKey: string; document: DesignDocument } | undefined {
  if (doc.rules.length === 0) return undefined;
  const picked = request.pick === 'default' ? null : doc.rules.find((r) => r.id === request.pick);
  const rule =
    picked === null ? undefined : (picked ?? matchRule(doc.rules, ruleContextOf(request)));
  const ruleKey = ruleKeyOf(rule);
  const holder = typeof stored === 'object' && stored !== null ? stored : doc;
  let byRule = variants.get(holder);
  if (!byRule) variants.set(holder, (byRule = new Map()));
  let document = byRule.get(ruleKey);
  if (!document) {
    document = applyRuleVariant(doc, rule);
    if (byRule.size >= MAX_VARIANTS) byRule.clear();
    byRule.set(ruleKey, document);
  }
  return { rule, ruleKey, document };
}
