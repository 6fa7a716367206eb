/**
 * The kiosk's teams (docs/kiosk.md Team, docs/kiosk.md "Kiosk"; docs/kiosk.md "Teams and additional
 * permissions"): team search, a team's profile (members, plan, designs count, bundles) and the
 * additional permissions an admin sets on a team, which take effect in the designs feature
 * (functions/domain/team-permissions.ts; docs/adr/0049-additional-permissions.md "Additional
 * permissions"), with the `frozen` flag that blocks design actions.
 */
import {
  AdditionalPermissionsBody,
  KioskTeamSearchBody,
  TEAM_SEARCH_LIMIT,
  type KioskTeamProfile,
  type KioskTeamRow,
} from '#shared/contract/kiosk-users.ts';
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { countTeamDesigns } from '#domain/team-permissions.ts';
import { listBundles } from '#functions/bundles/store.ts';
import { teamMembers } from '#functions/teams/members.ts';

/** A user as a team's owner, or null when the record is gone. */
async function ownerOf(ownerId: string) {
  const owner = (await db().User.get({ userId: ownerId }).go()).data;
  return owner ? { id: owner.userId, name: owner.name, email: owner.email } : null;
}

/**
 * A team as the kiosk shows it: owner, members, plan with its design limit (null: none), the
 * active and archived designs counted, the template bundles assigned to it and the admin-set
 * flags.
 * @throws AppError 404 for an unknown team.
 */
async function teamProfile(teamId: string): Promise<KioskTeamProfile> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  const plan = (await db().Plan.get({ planId: team.planId }).go()).data;
  const [owner, users, active, archived, bundles] = await Promise.all([
    ownerOf(team.ownerId),
    teamMembers(teamId),
    countTeamDesigns(teamId, 'active'),
    countTeamDesigns(teamId, 'archived'),
    listBundles((b) => (b.teamIds ?? []).includes(teamId)),
  ]);
  return {
    id: team.teamId,
    name: team.name,
    slug: team.slug,
    owner,
    users,
    current_billing_plan: team.planId,
    plan: {
      id: team.planId,
      name: plan?.name ?? team.planId,
      designs: plan?.designs ?? null,
    },
    designs: { active, archived },
    bundles: bundles
      .map((b) => ({ id: b.bundleId, name: b.name, status: b.status }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    frozen: team.frozen ?? false,
    additional_picsnippets: team.additionalPicsnippets ?? 0,
    limited_permission: team.limitedPermission ?? false,
    created_at: team.createdAt ?? '',
  };
}

/**
 * Teams whose name or slug contains the query (case-insensitive; empty: all), by name, at most
 * {@link TEAM_SEARCH_LIMIT}: a narrower query finds the rest. A scan of the teams: fine for an
 * admin screen at this scale (docs/kiosk.md). The bundle modal's add-teams search reads it too.
 */
async function searchTeams(query: string): Promise<KioskTeamRow[]> {
  const q = query.toLowerCase();
  const teams = (await db().Team.scan.go({ pages: 'all' })).data;
  const found = teams
    .filter((t) => q === '' || t.name.toLowerCase().includes(q) || t.slug.includes(q))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, TEAM_SEARCH_LIMIT);
  return Promise.all(
    found.map(async (t) => ({
      id: t.teamId,
      name: t.name,
      slug: t.slug,
      frozen: t.frozen ?? false,
      current_billing_plan: t.planId,
      owner: await ownerOf(t.ownerId),
    })),
  );
}

/** The kiosk's team routes, by route key. */
export const TEAM_ROUTES: Record<string, RouteDefinition> = {
  'POST /teams/search': route({
    body: KioskTeamSearchBody,
    handle: async ({ body }) => json(200, await searchTeams(body.query)),
  }),

  'GET /custom/teams/{id}': route({
    handle: async ({ params }) => json(200, await teamProfile(params.id!)),
  }),

  /**
   * Sets what the body names of `additional_picsnippets`, `limited_permission` and `frozen`;
   * the rest stays. Answers the team's profile afterwards.
   */
  'POST /custom/teams/{id}/additional_permissions': route({
    body: AdditionalPermissionsBody,
    handle: async ({ params, body }) => {
      const teamId = params.id!;
      if (!(await db().Team.get({ teamId }).go()).data) throw notFound();
      await db()
        .Team.patch({ teamId })
        .set({
          ...(body.additional_picsnippets !== undefined
            ? { additionalPicsnippets: body.additional_picsnippets }
            : {}),
          ...(body.limited_permission !== undefined
            ? { limitedPermission: body.limited_permission }
            : {}),
          ...(body.frozen !== undefined ? { frozen: body.frozen } : {}),
        })
        .go();
      return json(200, { success: true, team: await teamProfile(teamId) });
    },
  }),
};
