/**
 * Registration, account step (docs/accounts.md "Screens", docs/accounts.md "Validation rules",
 * docs/adr/0011-registration.md "Registration"). The form's rules, with the spec's exact messages,
 * are the route's contract (shared/contract/auth.ts `registrationBody`); here are the
 * common-password list they are given, the team slug (shared/team-slug.ts, which the registration
 * form shows), and one DynamoDB transaction that creates the user, the e-mail claim, the team and
 * the ownership, so a failure writes nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { billingOnline } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import { hashPassword } from '#lib/passwords.ts';
import { NOTICES, notifyTeam } from '#domain/notify.ts';
import { syncSeats } from '#functions/billing/seats.ts';
import { teamSlug } from '#shared/team-slug.ts';
import { REGISTRATION_MESSAGES as MESSAGES, type Registration } from '#shared/contract/auth.ts';

/** Messages of docs/accounts.md "Validation rules" (shared/contract/auth.ts `REGISTRATION_MESSAGES`). */
export { MESSAGES };

const COMMON = new Set(dictionary['passwords-common'] as string[]);

/** The team slug rule (docs/adr/0011-registration.md "Registration"), shared with the registration form (shared/team-slug.ts). */
export { teamSlug };

/** True for passwords among the ~50,000 most common (zxcvbn's list). */
export const isCommonPassword = (password: string): boolean => COMMON.has(password.toLowerCase());

const DAY_MS = 86_400_000;

/** The end of a trial of `days` days starting at `nowMs` (ms), ISO 8601 (docs/billing.md "Trials"). */
const trialEnd = (days: number, nowMs: number): string =>
  new Date(nowMs + days * DAY_MS).toISOString();

/** True when an account already uses the e-mail (case-insensitive). */
export async function emailTaken(email: string): Promise<boolean> {
  const claim = (await db().EmailClaim.get({ email: email.trim().toLowerCase() }).go()).data;
  return claim !== null;
}

/**
 * Creates the account: user, e-mail claim, team (owned, current) and membership, atomically;
 * with a valid invitation code for the same address also the invited membership.
 * @returns the new user's and team's ids, and whether the address is verified (it joined
 *   through its invitation code).
 * @throws AppError 422 with field errors for a taken e-mail or an unknown or unavailable plan.
 */
export async function register(
  form: Registration,
): Promise<{ userId: string; teamId: string; verified: boolean }> {
  const plan = (await db().Plan.get({ planId: form.plan }).go()).data;
  if (!plan || plan.active === false) throw validationFailed({ plan: [MESSAGES.plan] });
  if (plan.price > 0 && !billingOnline()) throw validationFailed({ plan: [MESSAGES.planOffline] });
  if (await emailTaken(form.email)) throw validationFailed({ email: [MESSAGES.emailTaken] });

  // An invitation in the form (docs/accounts.md "Screens": `invitation` query parameter) for this
  // address makes the new account a member of that team too, and that team current. Its code came
  // by e-mail to that address, so it also proves the address is the registrant's (verified); any
  // other registration starts unverified (docs/security.md "Invitations and e-mail ownership").
  const invitation = form.invitation
    ? (
        await db()
          .Invitation.query.byCode({
            codeHash: createHash('sha256').update(form.invitation).digest('base64url'),
          })
          .go({ limit: 1 })
      ).data[0]
    : undefined;
  const joining =
    invitation && invitation.status === 'pending' && invitation.email === form.email
      ? invitation
      : undefined;

  const userId = `user-${randomUUID()}`;
  const teamId = `team-${randomUUID()}`;
  const passwordHash = await hashPassword(form.password);
  const slug =
    teamSlug(form.team_slug && form.team_slug !== '' ? form.team_slug : form.team) || teamId;
  // ElectroDB reports a cancelled transaction in its result rather than by throwing.
  const result = await db()
    .service.transaction.write(({ User, EmailClaim, Team, Membership, Invitation }) => [
      EmailClaim.create({ email: form.email, userId }).commit(),
      User.create({
        userId,
        email: form.email,
        name: form.name,
        passwordHash,
        isAdmin: false,
        currentTeamId: joining?.teamId ?? teamId,
        ...(joining ? { emailVerifiedAt: new Date().toISOString() } : {}),
      }).commit(),
      Team.create({
        teamId,
        name: form.team,
        slug,
        ownerId: userId,
        planId: plan.planId,
        ...(plan.trialDays ? { trialEndsAt: trialEnd(plan.trialDays, Date.now()) } : {}),
      }).commit(),
      Membership.create({ teamId, userId, role: 'owner' }).commit(),
      ...(joining
        ? [
            Membership.create({ teamId: joining.teamId, userId, role: joining.role }).commit(),
            Invitation.patch({ invitationId: joining.invitationId })
              .set({ status: 'accepted' })
              .where((a, op) => op.eq(a.status, 'pending'))
              .commit(),
          ]
        : []),
    ])
    .go();
  if (result.canceled) {
    // The claim's condition failed: someone registered the address a moment ago.
    if (result.data[0]?.code === 'ConditionalCheckFailed') {
      throw validationFailed({ email: [MESSAGES.emailTaken] });
    }
    throw new Error(
      `registration transaction cancelled: ${result.data.map((d) => d.code).join(', ')}`,
    );
  }
  // The team joined through the invitation: a per-user plan's seats follow (docs/billing.md).
  if (joining) await syncSeats(joining.teamId, 'join');
  // Its owner and admins hear of the new member (docs/notifications.md).
  if (joining)
    await notifyTeam(joining.teamId, 'managers', (t) => NOTICES.memberJoined(t, form.name), userId);
  return { userId, teamId, verified: joining !== undefined };
}
