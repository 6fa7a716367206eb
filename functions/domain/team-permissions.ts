/**
 * What a kiosk admin's additional permissions on a team do (docs/adr/0049-additional-permissions.md
 * "Additional permissions" Team `additional_{product}`, `limited_permission`;
 * docs/adr/0023-team-roles.md "Team roles" platform admin; docs/adr/0049-additional-permissions.md
 * "Additional permissions"; test/integration/kiosk-teams.test.ts):
 * - `additionalPicsnippets`: active designs the team may have beyond its plan's limit
 *   (`Plan.designs`; no limit when the plan has none);
 * - `limitedPermission`: members who are neither the owner nor a team admin cannot archive or
 *   activate designs; everyone still creates and edits them.
 * The designs feature calls these checks where a design is created, cloned, archived or
 * activated; the kiosk reads the counts for a team's profile.
 */
import { db } from '#lib/db/index.ts';
import { designListKey } from '#lib/db/entities-designs.ts';
import { forbidden } from '#lib/errors.ts';

/** Designs counted at most per status (a count past it reads as this many). */
export const MAX_DESIGNS_COUNTED = 10_000;

/** The spec's word for a design in messages the user reads. */
const PRODUCT = 'PicSnippet';

/** The 403 messages of these checks. */
export const TEAM_PERMISSION_MESSAGES = {
  /** A create, clone or activate past the team's design limit. */
  designLimit: (limit: number) =>
    `Your team has reached its limit of ${limit} active ${PRODUCT}s. Archive one, or upgrade the plan in the team settings.`,
  /** An archive or activate by a plain member of a team with limited permission. */
  limited: (action: 'archive' | 'activate') =>
    `Only the team owner or a team admin can ${action} ${PRODUCT}s in this team.`,
} as const;

/**
 * How many of a team's designs have a status (templates excluded), counted up to `atMost`.
 * Reads keys only from the list index, at most `atMost` items.
 */
export async function countTeamDesigns(
  teamId: string,
  status: 'active' | 'archived',
  atMost = MAX_DESIGNS_COUNTED,
): Promise<number> {
  const listKey = designListKey({ teamId, status, isTemplate: false });
  const found = await db()
    .Design.query.byListCreated({ listKey })
    .go({ attributes: ['designId'], pages: 'all', count: atMost });
  return Math.min(found.data.length, atMost);
}

/**
 * The active designs a team may have: its plan's `designs` plus the admin's
 * `additionalPicsnippets`, or null for no limit (a plan without one, or an unknown plan).
 */
export async function designLimitOf(team: {
  planId: string;
  additionalPicsnippets?: number | undefined;
}): Promise<number | null> {
  const plan = (await db().Plan.get({ planId: team.planId }).go()).data;
  if (plan?.designs === undefined) return null;
  return plan.designs + (team.additionalPicsnippets ?? 0);
}

/**
 * Refuses one more active design (a create, clone or activate) when the team is at its limit.
 * @throws AppError 403 {@link TEAM_PERMISSION_MESSAGES}.designLimit; nothing for an unknown
 *   team (the caller's own checks answer that).
 */
export async function assertDesignRoom(teamId: string | undefined): Promise<void> {
  const team = teamId ? (await db().Team.get({ teamId }).go()).data : null;
  if (!team) return;
  const limit = await designLimitOf(team);
  if (limit === null) return;
  if ((await countTeamDesigns(team.teamId, 'active', limit)) >= limit)
    throw forbidden(TEAM_PERMISSION_MESSAGES.designLimit(limit));
}

/**
 * Refuses an archive or activate by a plain member (neither the team's owner nor a team admin)
 * of a team with `limitedPermission`.
 * @throws AppError 403 {@link TEAM_PERMISSION_MESSAGES}.limited.
 */
export async function assertMayChangeStatus(
  teamId: string | undefined,
  userId: string,
  action: 'archive' | 'activate',
): Promise<void> {
  const team = teamId ? (await db().Team.get({ teamId }).go()).data : null;
  if (!team?.limitedPermission || team.ownerId === userId) return;
  const membership = (await db().Membership.get({ teamId: team.teamId, userId }).go()).data;
  if (membership?.role === 'owner' || membership?.role === 'admin') return;
  throw forbidden(TEAM_PERMISSION_MESSAGES.limited(action));
}
