/**
 * Impersonation (docs/kiosk.md "Users, impersonation and discounts", docs/kiosk.md
 * `…/users/impersonate/{id}`;
 * test/integration/kiosk-users.test.ts):
 * - a platform admin starts it with a POST (CSRF-checked); never of another admin;
 * - the admin's session ends and a session of the user starts that names the admin
 *   (`Session.impersonatorId`), so every page knows (`GET /user/current` `impersonator`) and
 *   the user's password, two-factor authentication and tokens are read-only in it
 *   (functions/lib/auth.ts `READ_ONLY_WHILE_IMPERSONATING`);
 * - each one is an audit record (who, whom, started, ended);
 * - stopping ends that session and gives the admin a new session of their own.
 */
import { randomUUID } from 'node:crypto';
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import type { AuthContext } from '#lib/auth.ts';
import { db } from '#lib/db/index.ts';
import { conflict, forbidden, notFound, unauthenticated } from '#lib/errors.ts';
import { createSession, destroySession, endImpersonation, sessionCookie } from '#lib/session.ts';

/** Where the browser goes when an impersonation starts: the user's dashboard. */
const START_REDIRECT = '/dashboard';

/** Impersonations a profile lists, newest first. */
export const IMPERSONATIONS_LISTED = 20;

/** The answer of a start or a stop: where to go, and the new session's cookie. */
export interface SessionSwitch {
  redirect: string;
  cookie: string;
}

/**
 * Starts impersonating a user: the audit record, the admin's session ended, a session of the
 * user that names the admin.
 * @param auth the admin's context (the route table let only a platform admin's session in).
 * @throws AppError 404 (no such user), 403 {@link KIOSK_USER_MESSAGES}.adminTarget (a platform
 *   admin, the caller included).
 */
export async function startImpersonation(
  auth: AuthContext,
  targetId: string,
): Promise<SessionSwitch> {
  const admin = auth.user;
  if (!admin) throw unauthenticated();
  const target = (await db().User.get({ userId: targetId }).go()).data;
  if (!target) throw notFound();
  if (target.isAdmin) throw forbidden(KIOSK_USER_MESSAGES.adminTarget);
  const impersonationId = randomUUID();
  await db().Impersonation.create({ impersonationId, adminId: admin.userId, targetId }).go();
  await destroySession(auth.sessionToken);
  const token = await createSession(target.userId, Date.now(), {
    impersonatorId: admin.userId,
    impersonationId,
  });
  return { redirect: START_REDIRECT, cookie: sessionCookie(token) };
}

/**
 * Stops the caller's impersonation: the audit record ends, the impersonation session ends,
 * and the admin gets a session of their own, back on the user's kiosk profile.
 * @throws AppError 409 {@link KIOSK_USER_MESSAGES}.notImpersonating for a session that is not
 *   an impersonation.
 */
export async function stopImpersonation(auth: AuthContext): Promise<SessionSwitch> {
  const impersonator = auth.user?.impersonator;
  if (!auth.user || !impersonator) throw conflict(KIOSK_USER_MESSAGES.notImpersonating);
  await endImpersonation(impersonator.impersonationId);
  await destroySession(auth.sessionToken);
  const token = await createSession(impersonator.userId);
  return {
    redirect: `/spark/kiosk#/users/${encodeURIComponent(auth.user.userId)}`,
    cookie: sessionCookie(token),
  };
}

/** A user's impersonations, newest first, with the admins' names (for the kiosk profile). */
export async function impersonationsOf(targetId: string) {
  const records = (
    await db()
      .Impersonation.query.byTarget({ targetId })
      .go({ order: 'desc', limit: IMPERSONATIONS_LISTED })
  ).data;
  const adminIds = [...new Set(records.map((r) => r.adminId))];
  const admins = await Promise.all(adminIds.map((userId) => db().User.get({ userId }).go()));
  const byId = new Map(admins.flatMap((a) => (a.data ? [[a.data.userId, a.data] as const] : [])));
  return records.map((r) => {
    const admin = byId.get(r.adminId);
    return {
      id: r.impersonationId,
      admin: admin ? { id: admin.userId, name: admin.name, email: admin.email } : null,
      started_at: r.startedAt,
      ended_at: r.endedAt ?? null,
    };
  });
}
