/**
 * Team members and invitations (docs/adr/0023-team-roles.md "Team roles", docs/billing.md "Flows",
 * docs/accounts.md "Validation rules", docs/adr/0012-invitations.md "Invitations";
 * docs/adr/0023-team-roles.md "Team roles", docs/adr/0012-invitations.md "Invitations"): the plan's
 * member limit, owner-only changes, invitations by e-mail with a single-use link.
 *
 * An invitation is taken with its code, which only the e-mailed link carries: registering the
 * invited address, or having it as the account's address, is not enough (docs/security.md
 * "Invitations and e-mail ownership"; test/integration/members.test.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { AppError, forbidden, notFound, validationFailed } from '#lib/errors.ts';
import { sendMail } from '#lib/mailer.ts';
import { NOTICES, notify, notifyAddress, notifyTeam } from '#domain/notify.ts';
import { invitationMail } from '#domain/mail-templates.ts';
import { syncSeats } from '#functions/billing/seats.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export const MESSAGES = {
  memberLimit: (limit: number) =>
    `Your plan allows ${limit} member${limit === 1 ? '' : 's'} in a team. Upgrade your plan to invite more.`,
  alreadyMember: 'That person is already on this team.',
  alreadyInvited: 'That address already has a pending invitation to this team.',
  ownerCannotLeave: 'Owners cannot remove themselves from their team.',
  ownerRole: 'The owner’s role cannot be changed.',
  codeNeeded: 'To accept, open the invitation link from your e-mail.',
  otherAddress: (email: string) =>
    `This invitation was sent to ${email}. Sign in with that address to accept it.`,
} as const;

/** The members of a team with their user records, owner first. */
export async function teamMembers(teamId: string) {
  const memberships = (await db().Membership.query.byTeam({ teamId }).go({ pages: 'all' })).data;
  const users = await Promise.all(memberships.map((m) => db().User.get({ userId: m.userId }).go()));
  return memberships
    .map((m, i) => ({ membership: m, user: users[i]!.data }))
    .filter((x) => x.user !== null)
    .map((x) => ({
      id: x.user!.userId,
      name: x.user!.name,
      email: x.user!.email,
      pivot: { role: x.membership.role },
    }))
    .sort((a, b) =>
      a.pivot.role === 'owner' ? -1 : b.pivot.role === 'owner' ? 1 : a.name.localeCompare(b.name),
    );
}

async function pendingOf(teamId: string) {
  const all = (await db().Invitation.query.byTeam({ teamId }).go({ pages: 'all' })).data;
  return all.filter((i) => i.status === 'pending');
}

/** Pending invitations of a team, as the settings screen lists them. */
export async function teamInvitations(teamId: string) {
  return (await pendingOf(teamId)).map((i) => ({
    id: i.invitationId,
    email: i.email,
    role: i.role,
    created_at: i.createdAt,
  }));
}

/**
 * Invites an e-mail address to a team, within the plan's member limit (docs/accounts.md "Validation
 * rules": remaining = limit − current members; pending invitations count too, so the limit cannot
 * be overrun).
 * @throws AppError 422 on `email` (limit, member, already invited).
 */
export async function invite(
  teamId: string,
  invitedBy: string,
  email: string,
  role: string,
): Promise<string> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  const plan = (await db().Plan.get({ planId: team.planId }).go()).data;
  const limit = plan?.teamMembers ?? 1;
  const members = await teamMembers(teamId);
  const pending = await pendingOf(teamId);
  const address = email.trim().toLowerCase();
  if (members.some((m) => m.email === address))
    throw validationFailed({ email: [MESSAGES.alreadyMember] });
  if (pending.some((i) => i.email === address))
    throw validationFailed({ email: [MESSAGES.alreadyInvited] });
  if (members.length + pending.length >= limit)
    throw validationFailed({ email: [MESSAGES.memberLimit(limit)] });

  const code = randomBytes(24).toString('base64url');
  const invitationId = randomUUID();
  await db()
    .Invitation.create({
      invitationId,
      teamId,
      email: address,
      role,
      codeHash: sha256(code),
      invitedBy,
      status: 'pending',
    })
    .go();
  const inviter = (await db().User.get({ userId: invitedBy }).go()).data;
  const base = config().PUBLIC_URL;
  await sendMail({
    to: address,
    ...invitationMail({
      teamName: team.name,
      inviterName: inviter?.name,
      role,
      email: address,
      registerLink: `${base}/register?invitation=${code}`,
      acceptLink: `${base}/settings?invitation=${code}#/companies`,
    }),
  });
  // In-app too, for an existing account with that (verified) address (docs/notifications.md).
  await notifyAddress(address, NOTICES.invitation(team, role, inviter?.name ?? 'A team owner'));
  return invitationId;
}

/**
 * The invitation behind a link's code, for the registration page and the settings' accept
 * button (public; the holder of the code is the invitee, no team ids leak).
 * @returns `{ id, email, role, team: { name } }`.
 * @throws AppError 404 'This invitation is no longer valid.' for an unknown or answered code.
 */
export async function invitationByCode(code: string) {
  const found = (
    await db()
      .Invitation.query.byCode({ codeHash: sha256(code) })
      .go({ limit: 1 })
  ).data[0];
  if (!found || found.status !== 'pending') throw notFound('This invitation is no longer valid.');
  const team = (await db().Team.get({ teamId: found.teamId }).go()).data;
  return {
    id: found.invitationId,
    email: found.email,
    role: found.role,
    team: { name: team?.name ?? '' },
  };
}

/**
 * The signed-in user's pending invitations (by their e-mail), listed only once the address is
 * verified: someone who registered an address they do not read learns nothing from it.
 */
export async function pendingForUser(user: { email: string; emailVerified?: boolean }) {
  if (!user.emailVerified) return [];
  const email = user.email;
  const all = (await db().Invitation.query.byEmail({ email }).go({ pages: 'all' })).data;
  const pending = all.filter((i) => i.status === 'pending');
  const teams = await Promise.all(pending.map((i) => db().Team.get({ teamId: i.teamId }).go()));
  return pending.map((i, n) => ({
    id: i.invitationId,
    role: i.role,
    team: { id: i.teamId, name: teams[n]!.data?.name ?? '' },
  }));
}

/**
 * Accepts or rejects an invitation addressed to the user (docs/security.md "Invitations and
 * e-mail ownership"):
 * - accepting needs the invitation's code (only the e-mailed link has it) and the account's
 *   address to be the invited one. The code proves the user reads that address, so the address
 *   becomes verified in the same transaction that closes the invitation and adds the
 *   membership (conditions: still pending, same code, the account still has that address);
 * - rejecting needs the code or a verified address (the settings list shows invitations only
 *   to verified addresses).
 * @param code the code from the link, when the user came through it.
 * @throws AppError 404 when it is no longer pending or not for this account and no code was
 *   given; 422 on `code` without a code (or with a wrong one), 422 on `email` when the code is
 *   right but the account has another address.
 */
export async function answerInvitation(
  invitationId: string,
  user: { userId: string; email: string; name?: string; emailVerified?: boolean },
  accept: boolean,
  code?: string,
) {
  const inv = (await db().Invitation.get({ invitationId }).go()).data;
  if (!inv || inv.status !== 'pending') throw notFound();
  const codeOk = code !== undefined && code !== '' && sha256(code) === inv.codeHash;
  if (inv.email !== user.email) {
    if (codeOk) throw validationFailed({ email: [MESSAGES.otherAddress(inv.email)] });
    throw notFound();
  }
  if (!accept) {
    if (!codeOk && !user.emailVerified) throw validationFailed({ code: [MESSAGES.codeNeeded] });
    await db()
      .Invitation.patch({ invitationId })
      .set({ status: 'rejected' })
      .where((a, op) => op.eq(a.status, 'pending'))
      .go();
    return;
  }
  if (!codeOk) throw validationFailed({ code: [MESSAGES.codeNeeded] });
  const result = await db()
    .service.transaction.write(({ Invitation, Membership, User }) => [
      Invitation.patch({ invitationId })
        .set({ status: 'accepted' })
        .where((a, op) => `${op.eq(a.status, 'pending')} AND ${op.eq(a.codeHash, inv.codeHash)}`)
        .commit(),
      Membership.create({ teamId: inv.teamId, userId: user.userId, role: inv.role }).commit(),
      User.patch({ userId: user.userId })
        .set({ emailVerifiedAt: new Date().toISOString() })
        .where((a, op) => op.eq(a.email, inv.email))
        .commit(),
    ])
    .go();
  if (result.canceled) throw notFound();
  // A per-user plan's seats follow the members (docs/billing.md).
  await syncSeats(inv.teamId, 'join');
  const joined = user.name ?? user.email;
  await notifyTeam(inv.teamId, 'managers', (t) => NOTICES.memberJoined(t, joined), user.userId);
}

/**
 * Puts an invitation accepted at registration back to pending, when that registration is rolled
 * back (a paid plan's card refused; docs/billing.md), so the same link works for the next try.
 * @param code the link's code as the registration form sent it.
 * @param email the address the registration used (the invitation's own).
 * @returns the team the invitation is for when it was reopened, else undefined.
 */
export async function reopenInvitation(code: string, email: string): Promise<string | undefined> {
  const found = (
    await db()
      .Invitation.query.byCode({ codeHash: sha256(code) })
      .go({ limit: 1 })
  ).data[0];
  if (!found || found.status !== 'accepted' || found.email !== email.trim().toLowerCase())
    return undefined;
  await db()
    .Invitation.patch({ invitationId: found.invitationId })
    .set({ status: 'pending' })
    .where((a, op) => op.eq(a.status, 'accepted'))
    .go();
  return found.teamId;
}

/** Whether the user manages the team's members: its owner or one of its admins. */
async function managesTeam(teamId: string, userId: string): Promise<boolean> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) return false;
  if (team.ownerId === userId) return true;
  const membership = (await db().Membership.get({ teamId, userId }).go()).data;
  return membership?.role === 'admin';
}

/** Cancels a pending invitation; the team's owner or an admin may. */
export async function cancelInvitation(invitationId: string, userId: string): Promise<void> {
  const inv = (await db().Invitation.get({ invitationId }).go()).data;
  if (!inv || inv.status !== 'pending') throw notFound();
  if (!(await managesTeam(inv.teamId, userId))) throw notFound();
  await db().Invitation.patch({ invitationId }).set({ status: 'cancelled' }).go();
}

/**
 * Changes a member's role (owner or admin, enforced by the route); the owner's role is fixed.
 */
export async function changeRole(teamId: string, memberId: string, role: string): Promise<void> {
  const team = (await db().Team.get({ teamId }).go()).data;
  if (!team) throw notFound();
  if (memberId === team.ownerId) throw validationFailed({ role: [MESSAGES.ownerRole] });
  const membership = (await db().Membership.get({ teamId, userId: memberId }).go()).data;
  if (!membership) throw notFound();
  await db().Membership.patch({ teamId, userId: memberId }).set({ role }).go();
  if (role !== membership.role) await notify(memberId, NOTICES.roleChanged(team, role));
}

/**
 * Removes a member (the owner or an admin removes others) or leaves (a member removes
 * themselves). The owner cannot be removed, not even by themselves (docs/adr/0023-team-roles.md
 * "Team roles"). A removed member's current team moves to another.
 */
export async function removeMember(
  teamId: string,
  memberId: string,
  actorId: string,
): Promise<void> {
  const team = (await db().Team.get({ teamId }).go()).data;
  const actor = team ? (await db().Membership.get({ teamId, userId: actorId }).go()).data : null;
  if (!team || !actor) throw notFound();
  if (memberId === team.ownerId)
    throw new AppError(422, 'owner_cannot_leave', MESSAGES.ownerCannotLeave);
  if (memberId !== actorId && team.ownerId !== actorId && actor.role !== 'admin') throw forbidden();
  const membership = (await db().Membership.get({ teamId, userId: memberId }).go()).data;
  if (!membership) throw notFound();
  await db().Membership.delete({ teamId, userId: memberId }).go();
  await syncSeats(teamId, 'leave');
  const user = (await db().User.get({ userId: memberId }).go()).data;
  if (user?.currentTeamId === teamId) {
    const other = (await db().Membership.query.byUser({ userId: memberId }).go({ limit: 1 }))
      .data[0];
    if (other)
      await db().User.patch({ userId: memberId }).set({ currentTeamId: other.teamId }).go();
    else await db().User.patch({ userId: memberId }).remove(['currentTeamId']).go();
  }
  // The owner and admins hear of it (not whoever did it); a removed member hears too.
  const left = user?.name ?? 'A member';
  await notifyTeam(teamId, 'managers', (t) => NOTICES.memberLeft(t, left), actorId);
  if (memberId !== actorId) await notify(memberId, NOTICES.memberRemoved(team));
}
