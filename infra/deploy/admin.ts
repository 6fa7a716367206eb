/**
 * The first platform admin of a new installation (docs/infra.md "Deploy"):
 * `npm run deploy -- -c adminEmail=you@example.com` makes that address a platform admin and
 * prints a one-time sign-in link. The link is a password-reset link, valid for one hour and
 * usable once (functions/auth/account.ts), so no password ever passes through the deploy or its
 * logs.
 *
 * - An address without an account gets one: the user (verified: the operator vouches for it),
 *   its e-mail claim, a "Platform Admins" team on the free plan it owns, and the membership, in
 *   one transaction.
 * - An existing account is made a platform admin; nothing else of it changes.
 * Running it again only issues a new link (the previous one stops working).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { hashPassword } from '#lib/passwords.ts';
import { EMAIL_SHAPE } from '#shared/strings.ts';
import { RESET_LIFETIME_MS } from '#functions/auth/account.ts';

/** The free plan's id (shared/billing.ts `FREE_PLAN_ID`). */
const FREE_PLAN = 'free';

/**
 * Makes `email` a platform admin, creating the account if needed.
 * @param email the admin's address (normalised to lower case).
 * @param now the clock, ms since the epoch (tests pass their own).
 * @returns the user id, whether the account was created, and the one-time sign-in link
 *   (`{PUBLIC_URL}/password/reset/{token}?email=…`, valid {@link RESET_LIFETIME_MS}).
 * @throws Error for an address that is not an e-mail address, or when the account transaction
 *   is cancelled (the address was registered at the same moment: run it again).
 */
export async function bootstrapAdmin(
  email: string,
  now = Date.now(),
): Promise<{ userId: string; created: boolean; link: string }> {
  const address = email.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(address)) throw new Error(`adminEmail ${email} is not an e-mail address.`);
  const existing = (await db().User.query.byEmail({ email: address }).go({ limit: 1 })).data[0];
  let userId: string;
  if (existing) {
    userId = existing.userId;
    if (!existing.isAdmin) await db().User.patch({ userId }).set({ isAdmin: true }).go();
  } else {
    userId = `user-${randomUUID()}`;
    const teamId = `team-${randomUUID()}`;
    // A password nobody knows: the account is entered through the link below.
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    const result = await db()
      .service.transaction.write(({ User, EmailClaim, Team, Membership }) => [
        EmailClaim.create({ email: address, userId }).commit(),
        User.create({
          userId,
          email: address,
          name: address.slice(0, address.indexOf('@')),
          passwordHash,
          isAdmin: true,
          currentTeamId: teamId,
          emailVerifiedAt: new Date(now).toISOString(),
        }).commit(),
        Team.create({
          teamId,
          name: 'Platform Admins',
          slug: `platform-admins-${teamId.slice(5, 13)}`,
          ownerId: userId,
          planId: FREE_PLAN,
        }).commit(),
        Membership.create({ teamId, userId, role: 'owner' }).commit(),
      ])
      .go();
    if (result.canceled) {
      throw new Error(`The account for ${address} could not be created; run the deploy again.`);
    }
  }
  const token = randomBytes(32).toString('base64url');
  await db()
    .PasswordReset.put({
      userId,
      tokenHash: createHash('sha256').update(token).digest('base64url'),
      expiresAt: now + RESET_LIFETIME_MS,
      ttl: Math.ceil((now + RESET_LIFETIME_MS) / 1000),
    })
    .go();
  const link = `${config().PUBLIC_URL}/password/reset/${token}?email=${encodeURIComponent(address)}`;
  return { userId, created: !existing, link };
}
