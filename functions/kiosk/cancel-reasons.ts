/**
 * The kiosk's cancel reasons (docs/kiosk.md "Cancel reasons", docs/kiosk.md "Kiosk"; docs/kiosk.md
 * "Cancel reasons"): what the cancel flow recorded on the teams' Subscription items
 * (`cancelReason`, `cancelDescription`; functions/billing/subscriptions.ts `saveCancelMetaData`),
 * counted per reason, with the latest comments.
 */
import { CANCEL_REASONS, type CancelReason } from '#shared/contract/billing.ts';
import { CANCEL_COMMENTS_LISTED, type CancelReasons } from '#shared/contract/kiosk.ts';
import { db } from '#lib/db/index.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';

const isReason = (value: string | undefined): value is CancelReason =>
  (CANCEL_REASONS as readonly (string | undefined)[]).includes(value);

/**
 * Every reason in the spec's order with how many subscriptions carry it, and the newest
 * {@link CANCEL_COMMENTS_LISTED} non-empty descriptions with their team, newest first by the
 * subscription's last change (the records keep no separate time of the answer). A value that
 * is not one of the reasons (an old or hand-edited record) is left out.
 */
export async function cancelReasons(): Promise<CancelReasons> {
  const subs = (
    await db().Subscription.scan.go({
      pages: 'all',
      attributes: ['teamId', 'cancelReason', 'cancelDescription', 'updatedAt'],
    })
  ).data;
  const given = subs.filter((s): s is typeof s & { cancelReason: CancelReason } =>
    isReason(s.cancelReason),
  );
  const counts = new Map<CancelReason, number>();
  for (const s of given) counts.set(s.cancelReason, (counts.get(s.cancelReason) ?? 0) + 1);
  const latest = given
    .filter((s) => (s.cancelDescription ?? '').trim() !== '')
    .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''))
    .slice(0, CANCEL_COMMENTS_LISTED);
  const teams = await Promise.all(
    latest.map(async (s) => (await db().Team.get({ teamId: s.teamId }).go()).data),
  );
  return {
    reasons: CANCEL_REASONS.map((reason) => ({ reason, count: counts.get(reason) ?? 0 })),
    comments: latest.map((s, i) => ({
      reason: s.cancelReason,
      description: s.cancelDescription!.trim(),
      team: teams[i] ? { id: teams[i].teamId, name: teams[i].name } : null,
      at: s.updatedAt ?? '',
    })),
  };
}

/** These routes, by route key. */
export const CANCEL_REASON_ROUTES: Record<string, RouteDefinition> = {
  'GET /spark/cancelReasons': route({ handle: async () => json(200, await cancelReasons()) }),
};
