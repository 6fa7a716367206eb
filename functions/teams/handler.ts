/**
 * The `teams` feature (docs/adr/0012-invitations.md "Invitations": "Profile, teams, members";
 * docs/adr/0023-team-roles.md "Team roles"): the user's teams, the current team, switching,
 * creating a team within the plan's team limit, the roles, one team's JSON with its members,
 * invitations, member management, the team photo, renaming and deletion.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateTeamBody,
  InvitationAnswerBody,
  InviteBody,
  RenameTeamBody,
  RoleBody,
  type Team,
} from '#shared/contract/teams.ts';
import type { AuthUser } from '#lib/auth.ts';
import { db } from '#lib/db/index.ts';
import type { Entities } from '#lib/db/entities.ts';
import type { EntityItem } from 'electrodb';
import { notFound, unauthenticated, validationFailed } from '#lib/errors.ts';
import { featureHandler, json, route, type ApiResult, type RouteContext } from '#lib/http.ts';
import { teamSlug } from '#functions/auth/registration.ts';
import { cancelSubscriptionOfDeletedTeam } from '#functions/billing/team-deletion.ts';
import { deleteUserFile, storePhoto } from '#lib/uploads.ts';
import { signingSecretRoutes } from './signing-secret.ts';
import { planProductWatermark } from '#shared/billing.ts';
import { teamWatermark } from '#shared/scene/watermark.ts';
import { removeTeamWatermark, setTeamWatermark } from './watermark.ts';
import {
  answerInvitation,
  cancelInvitation,
  changeRole,
  invitationByCode,
  invite,
  pendingForUser,
  removeMember,
  teamInvitations,
  teamMembers,
} from './members.ts';

/**
 * Roles a member can have (docs/adr/0023-team-roles.md "Team roles": from the roles endpoint, owner
 * included). An admin manages members and invitations; the owner also the company itself and its
 * billing (docs/adr/0023-team-roles.md "Team roles").
 */
export const ROLES = [
  { value: 'owner', text: 'Owner' },
  { value: 'admin', text: 'Admin' },
  { value: 'member', text: 'Member' },
] as const;

type TeamRecord = EntityItem<Entities['Team']>;

/** A team as the SPA reads it (shared/contract/teams.ts `TeamSchema`), with the caller's role. */
async function teamView(team: TeamRecord, role: string): Promise<Team> {
  const plan = (await db().Plan.get({ planId: team.planId }).go()).data;
  return {
    id: team.teamId,
    name: team.name,
    slug: team.slug,
    owner_id: team.ownerId,
    photo_url: team.photoUrl ?? null,
    current_billing_plan: team.planId,
    can_export_pdf: plan?.can_export_pdf ?? false,
    can_upload_custom_fonts: plan?.can_upload_custom_fonts ?? false,
    frozen: team.frozen ?? false,
    watermark: teamWatermark(team),
    product_watermark: planProductWatermark(team.planId),
    export_provider: team.exportProvider ?? null,
    export_storefront: team.exportStorefront ?? null,
    pivot: { role },
  };
}

/** The user's memberships with their teams. */
async function teamsOf(userId: string) {
  const memberships = (await db().Membership.query.byUser({ userId }).go({ pages: 'all' })).data;
  const teams = await Promise.all(memberships.map((m) => db().Team.get({ teamId: m.teamId }).go()));
  return memberships
    .map((m, i) => ({ membership: m, team: teams[i]!.data }))
    .filter(
      (x): x is { membership: (typeof memberships)[number]; team: TeamRecord } => x.team !== null,
    );
}

const need = (user: AuthUser | undefined): AuthUser => {
  if (!user) throw unauthenticated();
  return user;
};

/**
 * A team with its members (`GET /settings/companies/json/{id}` and `…/{id}`).
 * @throws AppError 404 when the caller is not a member (or the team is gone).
 */
async function teamWithMembers({ auth, params }: RouteContext): Promise<ApiResult> {
  const user = need(auth.user);
  const membership = (await db().Membership.get({ teamId: params.id!, userId: user.userId }).go())
    .data;
  const team = membership ? (await db().Team.get({ teamId: params.id! }).go()).data : null;
  if (!membership || !team) throw notFound();
  return json(200, {
    ...(await teamView(team, membership.role)),
    users: await teamMembers(team.teamId),
  });
}

export const handler = featureHandler('teams', {
  ...signingSecretRoutes,
  'GET /settings/companies': route({
    handle: async ({ auth }) => {
      const user = need(auth.user);
      const list = await teamsOf(user.userId);
      return json(200, await Promise.all(list.map((x) => teamView(x.team, x.membership.role))));
    },
  }),

  'GET /settings/companies/current': route({
    handle: async ({ auth }) => {
      const user = need(auth.user);
      if (!user.currentTeamId) throw notFound('You have no current team.');
      const membership = (
        await db().Membership.get({ teamId: user.currentTeamId, userId: user.userId }).go()
      ).data;
      const team = (await db().Team.get({ teamId: user.currentTeamId }).go()).data;
      if (!membership || !team) throw notFound('You have no current team.');
      return json(200, await teamView(team, membership.role));
    },
  }),

  'GET /settings/companies/roles': route({
    handle: async () => json(200, ROLES),
  }),

  'GET /settings/companies/json/{id}': route({ handle: teamWithMembers }),
  'GET /settings/companies/{id}': route({ handle: teamWithMembers }),

  'GET /settings/companies/{id}/invitations': route({
    handle: async ({ params }) => json(200, await teamInvitations(params.id!)),
  }),

  'POST /settings/companies/{id}/invitations': route({
    body: InviteBody,
    handle: async ({ auth, params, body }) => {
      const id = await invite(params.id!, auth.user!.userId, body.email, body.role);
      return json(201, { success: true, id });
    },
  }),

  'GET /invitations/{code}': route({
    handle: async ({ params }) => json(200, await invitationByCode(params.code!)),
  }),

  'GET /settings/invitations/pending': route({
    handle: async ({ auth }) => json(200, await pendingForUser(need(auth.user))),
  }),

  /** Accepting needs the code of the e-mailed link (`{ code }`; members.ts answerInvitation). */
  'POST /settings/invitations/{id}/accept': route({
    body: InvitationAnswerBody,
    handle: async ({ auth, params, body }) => {
      await answerInvitation(params.id!, need(auth.user), true, body.code);
      return json(200, { success: true });
    },
  }),

  'POST /settings/invitations/{id}/reject': route({
    body: InvitationAnswerBody,
    handle: async ({ auth, params, body }) => {
      await answerInvitation(params.id!, need(auth.user), false, body.code);
      return json(200, { success: true });
    },
  }),

  'DELETE /settings/invitations/{id}': route({
    handle: async ({ auth, params }) => {
      await cancelInvitation(params.id!, need(auth.user).userId);
      return json(200, { success: true });
    },
  }),

  'PUT /settings/companies/{id}/members/{userId}': route({
    body: RoleBody,
    handle: async ({ params, body }) => {
      await changeRole(params.id!, params.userId!, body.role);
      return json(200, { success: true });
    },
  }),

  'DELETE /settings/companies/{id}/members/{userId}': route({
    handle: async ({ auth, params }) => {
      await removeMember(params.id!, params.userId!, need(auth.user).userId);
      return json(200, { success: true });
    },
  }),

  'POST /settings/companies/{id}/photo': route({
    handle: async ({ params, body }) => {
      const team = (await db().Team.get({ teamId: params.id! }).go()).data;
      if (!team) throw notFound();
      const url = await storePhoto(body, 'teams');
      await db().Team.patch({ teamId: team.teamId }).set({ photoUrl: url }).go();
      await deleteUserFile(team.photoUrl);
      return json(200, { success: true, photo_url: url });
    },
  }),

  'POST /settings/companies/{id}/watermark': route({
    handle: async ({ params, body }) =>
      json(200, { success: true, watermark: await setTeamWatermark(params.id!, body) }),
  }),

  'DELETE /settings/companies/{id}/watermark': route({
    handle: async ({ params }) => {
      await removeTeamWatermark(params.id!);
      return json(200, { success: true });
    },
  }),

  'PUT /settings/companies/{id}/name': route({
    body: RenameTeamBody,
    handle: async ({ params, body }) => {
      await db().Team.patch({ teamId: params.id! }).set({ name: body.name }).go();
      return json(200, { success: true });
    },
  }),

  /**
   * Deletes a team (owner): its memberships and pending invitations go; members whose current
   * team it was move to another of theirs. Its designs stay, so render URLs already sent in
   * e-mails keep drawing (docs/adr/0004-render-slice.md "Render slice"). A live subscription is
   * cancelled at once first; when Stripe refuses, nothing is deleted (502 with the spec's
   * subscription message).
   */
  'DELETE /settings/companies/{id}': route({
    handle: async ({ params, requestId }) => {
      const teamId = params.id!;
      await cancelSubscriptionOfDeletedTeam(teamId, requestId);
      const memberships = (await db().Membership.query.byTeam({ teamId }).go({ pages: 'all' }))
        .data;
      const invitations = (await db().Invitation.query.byTeam({ teamId }).go({ pages: 'all' }))
        .data;
      await Promise.all(
        invitations
          .filter((i) => i.status === 'pending')
          .map((i) =>
            db()
              .Invitation.patch({ invitationId: i.invitationId })
              .set({ status: 'cancelled' })
              .go(),
          ),
      );
      for (const m of memberships) {
        await db().Membership.delete({ teamId, userId: m.userId }).go();
        const user = (await db().User.get({ userId: m.userId }).go()).data;
        if (user?.currentTeamId === teamId) {
          const other = (await db().Membership.query.byUser({ userId: m.userId }).go({ limit: 1 }))
            .data[0];
          if (other)
            await db().User.patch({ userId: m.userId }).set({ currentTeamId: other.teamId }).go();
          else await db().User.patch({ userId: m.userId }).remove(['currentTeamId']).go();
        }
      }
      await db().Team.delete({ teamId }).go();
      return json(200, { success: true });
    },
  }),

  'PUT /settings/companies/{id}/switch': route({
    handle: async ({ auth, params }) => {
      const user = need(auth.user);
      const membership = (
        await db().Membership.get({ teamId: params.id!, userId: user.userId }).go()
      ).data;
      if (!membership) throw notFound();
      await db().User.patch({ userId: user.userId }).set({ currentTeamId: params.id! }).go();
      return json(200, { success: true, current_team_id: params.id });
    },
  }),

  /**
   * Creates a team owned by the caller, on the free plan, within the team limit of the plan of
   * the caller's current team (docs/accounts.md "Validation rules": remaining = limit − teams
   * owned). `pendingPayment` is always false: a new team starts on the free plan, and its owner
   * subscribes it later (billing is per team, docs/billing.md "Model").
   */
  'POST /settings/companies': route({
    body: CreateTeamBody,
    handle: async ({ auth, body }) => {
      const user = need(auth.user);
      const current = user.currentTeamId
        ? (await db().Team.get({ teamId: user.currentTeamId }).go()).data
        : null;
      const plan = (
        await db()
          .Plan.get({ planId: current?.planId ?? 'free' })
          .go()
      ).data;
      const limit = plan?.teams ?? 1;
      const owned = (await teamsOf(user.userId)).filter(
        (x) => x.team.ownerId === user.userId,
      ).length;
      if (owned >= limit) {
        throw validationFailed({
          name: [
            `Your plan allows ${limit} team${limit === 1 ? '' : 's'}. Upgrade your plan to create more.`,
          ],
        });
      }
      const teamId = `team-${randomUUID()}`;
      const slug = teamSlug(body.slug && body.slug !== '' ? body.slug : body.name) || teamId;
      const result = await db()
        .service.transaction.write(({ Team, Membership }) => [
          Team.create({
            teamId,
            name: body.name,
            slug,
            ownerId: user.userId,
            planId: 'free',
          }).commit(),
          Membership.create({ teamId, userId: user.userId, role: 'owner' }).commit(),
        ])
        .go();
      if (result.canceled) throw new Error('team creation cancelled');
      const team = (await db().Team.get({ teamId }).go()).data!;
      return json(201, { pendingPayment: false, team: await teamView(team, 'owner') });
    },
  }),
});
