/**
 * Drops a team's render URLs from the CDN when what they draw changes outside the design
 * (docs/adr/0057-watermark.md "Watermark", its "CDN" point): a new or removed team watermark
 * changes the designs that show it; a plan change that adds or removes the product mark changes
 * every design of the team. A render URL with the design's cache id is answered `immutable` for a
 * year, so without this CloudFront would keep the old mark.
 *
 * Render URLs are laid out `/r/{publicId}…` (no team prefix), so a team is reached one wildcard
 * per design. CloudFront runs at most 15 wildcard paths at a time per distribution, so up to
 * {@link MAX_DESIGN_WILDCARDS} designs go in one call, and more than that become one `/r/*` for
 * the whole distribution (other teams' edge copies are then fetched again from the origin,
 * whose render cache still holds them: no redraws).
 *
 * The render keeps a team's plan and watermark up to a minute, so a URL fetched at the edge in
 * that minute can be drawn with the old mark and cached again; each change therefore also queues
 * a second invalidation of the same designs `RECHECK_DELAY_SECONDS` later (the
 * `render-invalidations` queue, functions/designs/render-invalidation-worker.ts).
 */
import { createInvalidation, invalidatePaths } from '#lib/cdn.ts';
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { enqueue } from '#lib/queue.ts';
import { teamList } from './lists.ts';

/** Designs invalidated one wildcard each; past this one `/r/*` (CloudFront's wildcard limit). */
export const MAX_DESIGN_WILDCARDS = 15;

/**
 * Designs read at most to find the affected ones (a watermark change reads their documents:
 * about ten 1 MB query pages); past this the whole `/r/*` is invalidated.
 */
export const MAX_DESIGNS_READ = 1000;

/** The path that covers every render URL of the distribution. */
export const ALL_RENDERS = '/r/*';

/** Which of a team's designs a change reaches: all of them, or those showing the team watermark. */
export type AffectedDesigns = 'all' | 'watermarked';

/**
 * How long after a change the second invalidation runs, s: the render's kept team settings
 * (functions/render/handler.ts `PLAN_TTL_MS`, 60 s) plus the longest render begun with them (the
 * render function's 25 s timeout, infra/constructs/render.ts) plus 5 s for the answer to reach
 * the edge. After it, no render can draw the old mark (docs/adr/0057-watermark.md "Watermark").
 */
export const RECHECK_DELAY_SECONDS = 90;

/** The `render-invalidations` queue's message: the team and which of its designs. */
export interface RenderRecheck {
  teamId: string;
  which: AffectedDesigns;
}

/** The caller-reference prefix of a second invalidation (tells it apart in CloudFront's list). */
export const RECHECK_REFERENCE = 'recheck-team-';

/**
 * The invalidation paths for a set of designs: one `/r/{publicId}*` each, or `/r/*` when there
 * are more than {@link MAX_DESIGN_WILDCARDS} or the set was not read to its end.
 * @param publicIds the designs' public render ids (any order; duplicates dropped).
 * @param complete false when the reading stopped early (too many designs).
 * @returns at most {@link MAX_DESIGN_WILDCARDS} paths; none for no designs.
 */
export function renderPathsOf(publicIds: readonly string[], complete = true): string[] {
  const unique = [...new Set(publicIds)];
  if (!complete || unique.length > MAX_DESIGN_WILDCARDS) return [ALL_RENDERS];
  return unique.map((id) => `/r/${id}*`);
}

/**
 * The public ids of the team's designs (active and archived) that a change reaches, read by
 * pages of 100 from the team's design lists; stops as soon as the answer can only be `/r/*`.
 * @returns the ids and whether the lists were read to their end.
 * @throws the table's error.
 */
async function affectedPublicIds(
  teamId: string,
  which: AffectedDesigns,
): Promise<{ publicIds: string[]; complete: boolean }> {
  const publicIds: string[] = [];
  let read = 0;
  for (const status of ['active', 'archived'] as const) {
    let cursor: string | null = null;
    do {
      const page: { data: unknown[]; cursor: string | null } = await db()
        .Design.query.byListUpdated({ listKey: teamList(teamId, status) })
        .go({
          attributes: which === 'all' ? ['publicId', 'teamId'] : ['publicId', 'teamId', 'document'],
          limit: 100,
          ...(cursor ? { cursor } : {}),
        });
      for (const item of page.data as Array<{
        publicId: string;
        teamId: string;
        document?: { show_watermark?: unknown };
      }>) {
        if (item.teamId !== teamId) continue;
        if (which === 'watermarked' && item.document?.show_watermark !== true) continue;
        publicIds.push(item.publicId);
      }
      read += page.data.length;
      if (publicIds.length > MAX_DESIGN_WILDCARDS || read >= MAX_DESIGNS_READ)
        return { publicIds, complete: false };
      cursor = page.cursor;
    } while (cursor);
  }
  return { publicIds, complete: true };
}

/**
 * Invalidates the CDN's copies of the team's affected render URLs in one CloudFront call
 * (`renderPathsOf`), and queues the same again `RECHECK_DELAY_SECONDS` later. Never throws: the
 * change that asked for it has already been stored, and a failure is logged (the CDN then keeps
 * the old image until its own expiry).
 * @param teamId the team whose watermark or plan changed.
 * @param which `'watermarked'` for a team watermark change, `'all'` for the product mark.
 * @returns the paths asked for now (empty when no design is affected or the read failed).
 */
export async function invalidateTeamRenders(
  teamId: string,
  which: AffectedDesigns,
): Promise<string[]> {
  const recheck: RenderRecheck = { teamId, which };
  await enqueue('render-invalidations', [recheck], {
    delaySeconds: RECHECK_DELAY_SECONDS,
  }).catch((error: unknown) =>
    logger.warn('team render invalidation: second pass not queued', {
      teamId,
      error: error as Error,
    }),
  );
  let paths: string[];
  try {
    const { publicIds, complete } = await affectedPublicIds(teamId, which);
    paths = renderPathsOf(publicIds, complete);
  } catch (error) {
    logger.warn('team render invalidation: designs not read', { teamId, error: error as Error });
    return [];
  }
  if (paths.length > 0) await invalidatePaths(paths, `team-${teamId}`);
  return paths;
}

/**
 * The second invalidation (the queue worker's): the team's affected designs read again (a design
 * saved since has a new URL anyway) and invalidated in one call.
 * @returns the paths asked for (empty when no design is affected).
 * @throws the table's or CloudFront's error, so the queue delivers the message again.
 */
export async function recheckTeamRenders({ teamId, which }: RenderRecheck): Promise<string[]> {
  const { publicIds, complete } = await affectedPublicIds(teamId, which);
  const paths = renderPathsOf(publicIds, complete);
  if (paths.length > 0) await createInvalidation(paths, `${RECHECK_REFERENCE}${teamId}`);
  return paths;
}
