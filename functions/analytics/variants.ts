/**
 * Which rule (variant) each logged request was shown (docs/analytics.md "Variants"). The CDN's
 * log holds no response header, but it holds everything a design's rules read: the URL's
 * values (and so the split bucket), the User-Agent (device, OS, mail client), the viewer's
 * country and the moment. The roll-up replays the design's rules on those, with the render's
 * own code (functions/render/rule-context.ts), so a CDN hit is attributed to the variant its
 * cached image shows.
 *
 * Limits, stated in the docs: the design's current rules are replayed (a request of an older
 * version is read by today's rules); a rule on a value looked up from a data source reads the
 * URL's value only; the mail client is read from the User-Agent, as the analytics' clients are.
 */
import { normaliseValues } from '#functions/render/service.ts';
import { ruleContextOf } from '#functions/render/rule-context.ts';
import { mailProxyOf } from '#functions/render/mail-proxies.ts';
import type { DesignDocument } from '#shared/design.ts';
import { parseRenderQuery } from '#shared/render-url.ts';
import { declaredParameters } from '#shared/scene/resolve.ts';
import { matchRule } from '#shared/scene/rules.ts';
import { splitAssignment } from '#shared/scene/optimised-split.ts';
import type { VariantInputRow } from './rollup-sql.ts';

/** A variant's counts in a period: impressions (opens and proxy fetches) and clicks. */
export interface VariantCounts {
  impressions: number;
  clicks: number;
}

/** The key of the requests no rule matched: the design as it is. */
export const DEFAULT_VARIANT = 'default';

/** CloudFront writes spaces of the agent as `%20`; the rules read the agent as sent. */
const agentOf = (logged: string): string | undefined =>
  logged === '-' ? undefined : logged.replaceAll('%20', ' ');

/**
 * Counts per variant (rule id, or {@link DEFAULT_VARIANT}) per design.
 * @param rows the groups of {@link variantInputsSql}.
 * @param documents each design's current document, by public id (designs without rules are
 *   skipped).
 * @param splits the kept bucket assignments of designs that optimise their split
 *   (`DesignSplit.tables`), by public id: a request counts for the variant the assignment in
 *   effect at its minute showed (docs/optimiser.md "In the product").
 * @returns public id → variant → counts.
 */
export function variantCountsByDesign(
  rows: readonly VariantInputRow[],
  documents: ReadonlyMap<string, DesignDocument>,
  splits: ReadonlyMap<string, unknown> = new Map(),
): Map<string, Record<string, VariantCounts>> {
  const out = new Map<string, Record<string, VariantCounts>>();
  const known = new Map<string, ReadonlySet<string>>();
  for (const row of rows) {
    const doc = documents.get(row.public_id);
    if (!doc || doc.rules.length === 0) continue;
    let names = known.get(row.public_id);
    if (!names) known.set(row.public_id, (names = new Set(declaredParameters(doc))));
    const query = parseRenderQuery(row.cs_uri_query === '-' ? '' : row.cs_uri_query, names);
    const userAgent = agentOf(row.cs_user_agent);
    const nowMs = Date.parse(`${row.date}T${row.minute}:00Z`);
    const rule = matchRule(
      doc.rules,
      ruleContextOf({
        publicId: row.public_id,
        values: normaliseValues(doc, query),
        nowMs,
        splitAssignment: splitAssignment(doc, splits.get(row.public_id), nowMs),
        userAgent,
        country: row.c_country === '-' ? undefined : row.c_country,
        proxy: mailProxyOf(userAgent),
      }),
    );
    const key = rule?.id ?? DEFAULT_VARIANT;
    let counts = out.get(row.public_id);
    if (!counts) out.set(row.public_id, (counts = {}));
    const variant = (counts[key] ??= { impressions: 0, clicks: 0 });
    if (row.kind === 'click') variant.clicks += Number(row.requests);
    else variant.impressions += Number(row.requests);
  }
  return out;
}
