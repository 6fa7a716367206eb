/**
 * The contract of the `teams` routes (shared/routes.ts; docs/adr/0044-the-api-contract.md "The API
 * contract", docs/adr/0023-team-roles.md "Team roles"; docs/adr/0012-invitations.md "Invitations":
 * "Profile, teams, members"): the user's teams, the current team, creating, switching, renaming and
 * deleting teams, the team photo, the roles, members and invitations. functions/teams parses its
 * input with these schemas.
 */
import { z } from 'zod';
import { defineContract, IdParams, SuccessSchema } from './core.ts';

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

/** docs/accounts.md "Validation rules": the company (team) name's message. */
export const TEAM_NAME_REQUIRED = 'Company name is required';

/** A team's name: 1 to 255 characters after trimming. */
const TeamName = z.string({ error: TEAM_NAME_REQUIRED }).trim().min(1, TEAM_NAME_REQUIRED).max(255);

/** `POST /settings/companies`: a new team's name and, optionally, its slug's source. */
export const CreateTeamBody = z.object({
  name: TeamName,
  slug: z.string().trim().max(255).optional(),
});

/** `PUT /settings/companies/{id}/name`. */
export const RenameTeamBody = z.object({ name: TeamName });

/** Roles that can be given by an invitation or a role change (not owner: one per team). */
export const GivenRole = z.enum(['admin', 'member'], { error: 'The selected role is invalid.' });

/** `POST /settings/companies/{id}/invitations`: who to invite, and as what (default member). */
export const InviteBody = z.object({
  email: z.string().trim().toLowerCase().email('Email must be valid email').max(255),
  role: GivenRole.default('member'),
});

/** `PUT /settings/companies/{id}/members/{userId}`: the member's new role. */
export const RoleBody = z.object({ role: GivenRole });

/**
 * `POST /settings/invitations/{id}/accept` and `…/reject`: the code of the e-mailed link, when
 * the user has it (accepting needs it; docs/security.md "Invitations and e-mail ownership").
 */
export const InvitationAnswerBody = z
  .object({ code: z.string().trim().max(128).optional().nullable() })
  .transform((b) => ({ code: b.code ?? undefined }));

/** `{ id, userId }`: a team and one of its members. */
export const MemberParams = z.object({ id: z.string().min(1), userId: z.string().min(1) });

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** A role as the roles list gives it (docs/adr/0023-team-roles.md "Team roles": owner included). */
export const RoleOptionSchema = z.object({ value: z.string(), text: z.string() });
export type RoleOption = z.infer<typeof RoleOptionSchema>;

/** A team's watermark image: its same-origin URL and its size, px (functions/teams/watermark.ts). */
export const TeamWatermarkSchema = z.object({
  url: z.string(),
  width: z.number(),
  height: z.number(),
});

/** A team as the SPA reads it (docs/adr/0023-team-roles.md "Team roles" Team), with its plan's capabilities and the caller's role. */
export const TeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  owner_id: z.string(),
  photo_url: z.string().nullable(),
  /** The team's plan id. */
  current_billing_plan: z.string(),
  can_export_pdf: z.boolean(),
  can_upload_custom_fonts: z.boolean(),
  /** docs/adr/0018-design-lists.md "Design lists": a frozen team cannot create, archive, clone or activate designs. */
  frozen: z.boolean(),
  /**
   * The team's watermark image (its logo), which designs may show (docs/adr/0057-watermark.md
   * "Watermark"): same-origin URL and size, px; null when none is set.
   */
  watermark: TeamWatermarkSchema.nullable(),
  /** The plan puts the product mark on the team's designs (shared/billing.ts). */
  product_watermark: z.boolean(),
  /**
   * The platform the team last chose on an export screen (a provider value) and its Klaviyo
   * store front: a design never exported opens with them (docs/export.md "The screen"); null:
   * Custom.
   */
  export_provider: z.string().nullable(),
  export_storefront: z.string().nullable(),
  /** The caller's role in the team (`owner` or a team role). */
  pivot: z.object({ role: z.string() }),
});
export type Team = z.infer<typeof TeamSchema>;

/** A member of a team, owner first. */
export const TeamMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  pivot: z.object({ role: z.string() }),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;

/** A team with its members, owner first (the team settings page). */
const TeamWithMembersSchema = TeamSchema.extend({ users: z.array(TeamMemberSchema) });

/** A pending invitation of a team, as the settings list it. */
export const TeamInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  /** ISO 8601. */
  created_at: z.string(),
});
export type TeamInvitation = z.infer<typeof TeamInvitationSchema>;

/** A pending invitation to the signed-in user (verified addresses only). */
export const PendingInvitationSchema = z.object({
  id: z.string(),
  role: z.string(),
  team: z.object({ id: z.string(), name: z.string() }),
});
export type PendingInvitation = z.infer<typeof PendingInvitationSchema>;

/** The invitation behind a link's code (public: no team ids). */
export const InvitationByCodeSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  team: z.object({ name: z.string() }),
});
export type InvitationByCode = z.infer<typeof InvitationByCodeSchema>;

/** The `teams` routes' contracts, by route key. */
export const TEAMS_CONTRACT = {
  /** 404 'This invitation is no longer valid.' for an unknown or answered code. */
  'GET /invitations/{code}': defineContract({
    params: z.object({ code: z.string().min(1) }),
    answer: InvitationByCodeSchema,
  }),
  'GET /settings/companies': defineContract({ answer: z.array(TeamSchema) }),
  /** Within the team limit of the current team's plan (docs/accounts.md "Validation rules"), on the free plan. */
  'POST /settings/companies': defineContract({
    body: CreateTeamBody,
    answer: z.object({ pendingPayment: z.boolean(), team: TeamSchema }),
    status: 201,
  }),
  /** 404 when the user has no current team. */
  'GET /settings/companies/current': defineContract({ answer: TeamSchema }),
  'GET /settings/companies/roles': defineContract({ answer: z.array(RoleOptionSchema) }),
  /** A team with its members; 404 for a team the caller is not a member of. */
  'GET /settings/companies/json/{id}': defineContract({
    params: IdParams,
    answer: TeamWithMembersSchema,
  }),
  /** The same answer for API tokens (docs/developer-api.md "The reference"). */
  'GET /settings/companies/{id}': defineContract({
    params: IdParams,
    answer: TeamWithMembersSchema,
  }),
  'PUT /settings/companies/{id}/switch': defineContract({
    params: IdParams,
    answer: z.object({ success: z.literal(true), current_team_id: z.string() }),
  }),
  /** A live subscription is cancelled first; when Stripe refuses, 502 and nothing is deleted. */
  'DELETE /settings/companies/{id}': defineContract({
    params: IdParams,
    answer: SuccessSchema,
    errors: [502],
  }),
  /** Multipart: the file is the field `photo` (functions/lib/uploads.ts `storePhoto`). */
  'POST /settings/companies/{id}/photo': defineContract({
    params: IdParams,
    answer: z.object({ success: z.literal(true), photo_url: z.string() }),
  }),
  /**
   * Multipart: the file is the field `watermark` (functions/teams/watermark.ts); 422 with a
   * field error for a missing or refused file. Replaces the team's watermark.
   */
  'POST /settings/companies/{id}/watermark': defineContract({
    params: IdParams,
    answer: z.object({
      success: z.literal(true),
      watermark: TeamWatermarkSchema,
    }),
  }),
  /** Removes the team's watermark (designs that show it then show none). */
  'DELETE /settings/companies/{id}/watermark': defineContract({
    params: IdParams,
    answer: SuccessSchema,
  }),
  'PUT /settings/companies/{id}/name': defineContract({
    params: IdParams,
    body: RenameTeamBody,
    answer: SuccessSchema,
  }),
  'GET /settings/companies/{id}/invitations': defineContract({
    params: IdParams,
    answer: z.array(TeamInvitationSchema),
  }),
  'POST /settings/companies/{id}/invitations': defineContract({
    params: IdParams,
    body: InviteBody,
    answer: z.object({ success: z.literal(true), id: z.string() }),
    status: 201,
  }),
  'PUT /settings/companies/{id}/members/{userId}': defineContract({
    params: MemberParams,
    body: RoleBody,
    answer: SuccessSchema,
  }),
  'DELETE /settings/companies/{id}/members/{userId}': defineContract({
    params: MemberParams,
    answer: SuccessSchema,
  }),
  'GET /settings/invitations/pending': defineContract({
    answer: z.array(PendingInvitationSchema),
  }),
  'POST /settings/invitations/{id}/accept': defineContract({
    params: IdParams,
    body: InvitationAnswerBody,
    answer: SuccessSchema,
  }),
  'POST /settings/invitations/{id}/reject': defineContract({
    params: IdParams,
    body: InvitationAnswerBody,
    answer: SuccessSchema,
  }),
  'DELETE /settings/invitations/{id}': defineContract({ params: IdParams, answer: SuccessSchema }),
} as const;
