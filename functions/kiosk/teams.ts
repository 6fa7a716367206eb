/**
 * The kiosk's teams (spec 001 §7 "Kiosk"): team search, a team's profile and the additional
 * permissions an admin sets on a team, including the `frozen` flag that blocks design actions.
 */
import { z } from 'zod';
import { db } from '#lib/db/index.ts';
import { notFound } from '#lib/errors.ts';
import { json, route, type RouteDefinition } from '#lib/http.ts';
import { teamMembers } from '#functions/teams/members.ts';

/** A team as the kiosk shows it: owner, members, plan and the admin-set flags. */
async function teamProfile(teamId: string) {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  const owner = (await db().User.get({ userId: team.ownerId }).go()).data;
  return {
    id: team.teamId,
    name: team.name,
    slug: team.slug,
    owner: owner ? { id: owner.userId, name: owner.name, email: owner.email } : null,
    users: await teamMembers(teamId),
    current_billing_plan: team.planId,
    frozen: team.frozen ?? false,
    additional_picsnippets: team.additionalPicsnippets ?? 0,
    limited_permission: team.limitedPermission ?? false,
    created_at: team.createdAt,
  };
}

/** The kiosk's team routes, by route key. */
export const TEAM_ROUTES: Record<string, RouteDefinition> = {
  /**
   * Teams whose name or slug contains the query (case-insensitive), at most 25. A table scan:
   * fine for an admin screen at this scale; a search index belongs to the kiosk issue.
   */
  'POST /teams/search': route({
    body: z.object({ query: z.string().trim().max(100).default('') }),
    handle: async ({ body }) => {
      const q = body.query.toLowerCase();
      const teams = (await db().Team.scan.go({ pages: 'all' })).data;
      return json(
        200,
        teams
          .filter((t) => q === '' || t.name.toLowerCase().includes(q) || t.slug.includes(q))
          .sort((a, b) => a.name.localeCompare(b.name))
          .slice(0, 25)
          .map((t) => ({ id: t.teamId, name: t.name, slug: t.slug, frozen: t.frozen ?? false })),
      );
    },
  }),

  'GET /custom/teams/{id}': route({
    handle: async ({ params }) => json(200, await teamProfile(params.id!)),
  }),

  'POST /custom/teams/{id}/additional_permissions': route({
    body: z.object({
      additional_picsnippets: z.coerce.number().int().min(0).max(100_000).optional(),
      limited_permission: z.boolean().optional(),
      frozen: z.boolean().optional(),
    }),
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
