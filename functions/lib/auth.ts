/**
 * Who is calling, and may they call this route (docs/security.md "Authorization matrix";
 * docs/adr/0023-team-roles.md "Team roles"). One check for every route, from its access level in
 * the route table:
 * - `public`: anyone; `stripe`: the webhook checks Stripe's signature itself;
 * - `user`: a live session, else 401;
 * - `admin`: a platform admin, else 403 (401 when signed out);
 * - `owner`: the owner of the team `{id}`; a member gets 403, anyone else 404, so other teams'
 *   ids do not leak.
 * CSRF is checked first on every state-changing call (session.ts). A Bearer API token stands for
 * its user within its abilities (`read` for GET, `write` otherwise), until it expires, and never
 * on a route the table marks `sessionOnly` (the account's e-mail, password, two-factor
 * authentication and tokens, deleting a team, the kiosk: docs/security.md "Sessions and
 * tokens"), and each token request counts against the token's rate limit
 * (limits/token-requests.ts). A session older than the user's last password change or reset counts
 * as signed out. A session a platform admin started as another user carries `user.impersonator`,
 * and the user's password, two-factor authentication and tokens are read-only in it ({@link
 * READ_ONLY_WHILE_IMPERSONATING}; docs/kiosk.md).
 */
import { KIOSK_USER_MESSAGES } from '#shared/contract/kiosk-users.ts';
import { routeKey, type Route } from '#shared/routes.ts';
import { db } from './db/index.ts';
import { forbidden, notFound, unauthenticated } from './errors.ts';
import type { ApiEvent } from './http.ts';
import { readApiToken } from './api-tokens.ts';
import { limitTokenRequest } from './limits/token-requests.ts';
import {
  bearerOf,
  checkCsrf,
  readCookies,
  readSessionDetails,
  SESSION_COOKIE,
  type SessionImpersonation,
} from './session.ts';

export interface AuthUser {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
  currentTeamId?: string | undefined;
  photoUrl?: string | undefined;
  twoFactorEnabled?: boolean;
  onboardingUseCase?: string | undefined;
  /** The address is proven to be the user's (functions/auth/email-verification.ts). */
  emailVerified?: boolean;
  /**
   * Set while a platform admin acts as this user (docs/kiosk.md "Users, impersonation and
   * discounts"): the admin, and the impersonation's audit record.
   */
  impersonator?: { userId: string; name: string; email: string; impersonationId: string };
}

export interface AuthContext {
  user?: AuthUser;
  /** The session cookie's token, for logout. */
  sessionToken?: string;
  /** The caller used a Bearer API token rather than a session. */
  viaToken?: boolean;
}

/** The refusal of a `sessionOnly` route to an API token. */
export const TOKEN_REFUSED = 'API tokens cannot do this. Sign in to the app to do it.';

/**
 * The routes an impersonating admin may not use (docs/kiosk.md "Users, impersonation and
 * discounts"; test/integration/kiosk-users.test.ts): the impersonated user's password,
 * two-factor authentication and API tokens stay as the user left them. Reading them is allowed.
 */
export const READ_ONLY_WHILE_IMPERSONATING: ReadonlySet<string> = new Set([
  'PUT /settings/password',
  'POST /settings/two-factor-auth',
  'DELETE /settings/two-factor-auth',
  'POST /settings/api/token',
  'PUT /settings/api/token/{id}',
  'DELETE /settings/api/token/{id}',
]);

/** The 403 message of {@link READ_ONLY_WHILE_IMPERSONATING}. */
export const IMPERSONATION_READ_ONLY = KIOSK_USER_MESSAGES.readOnlyWhileImpersonating;

/**
 * The admin behind an impersonation session, while they are still a platform admin; undefined
 * ends the session's standing (the caller then counts as signed out).
 */
async function impersonatorOf(
  impersonation: SessionImpersonation,
): Promise<AuthUser['impersonator'] | undefined> {
  const admin = (await db().User.get({ userId: impersonation.impersonatorId }).go()).data;
  if (!admin?.isAdmin) return undefined;
  return {
    userId: admin.userId,
    name: admin.name,
    email: admin.email,
    impersonationId: impersonation.impersonationId,
  };
}

/**
 * Authenticates the caller and applies the route's access rule.
 * @throws AppError 419 (CSRF), 401, 403 or 404 as above.
 */
export async function authenticate(event: ApiEvent, route: Route): Promise<AuthContext> {
  if (route.access !== 'stripe') checkCsrf(event);
  const bearer = bearerOf(event.headers ?? {});
  // A call that names the Bearer scheme is a token call: a malformed one (`Bearer a b`) is
  // refused, never read as the cookie session's. Other schemes (a staging site's Basic auth in
  // front of the app) are not the app's and are ignored.
  if (bearer === undefined && /^\s*Bearer\b/i.test(event.headers?.authorization ?? ''))
    throw unauthenticated('Invalid API token.');
  const token = bearer ? undefined : readCookies(event)[SESSION_COOKIE];
  let userId: string | undefined;
  let sessionStart: number | undefined;
  let impersonation: SessionImpersonation | undefined;
  if (bearer) {
    // A token works within its abilities, and never on session-only routes (it cannot take
    // over the account, manage tokens or sessions, delete a team or reach the kiosk).
    const found = await readApiToken(bearer);
    if (!found) throw unauthenticated('Invalid API token.');
    // Counted before any other check, so every answer to a token carries the rate-limit fields.
    await limitTokenRequest(event, found);
    if (route.sessionOnly) throw forbidden(TOKEN_REFUSED);
    const needed = route.ability ?? (route.method === 'GET' ? 'read' : 'write');
    if (!found.abilities.includes(needed))
      throw forbidden(`This API token does not have the "${needed}" ability.`);
    userId = found.userId;
  } else {
    const session = await readSessionDetails(token);
    userId = session?.userId;
    sessionStart = session?.createdAt;
    impersonation = session?.impersonation;
  }
  let user: AuthUser | undefined;
  if (userId) {
    const record = (await db().User.get({ userId }).go()).data;
    // A session from before the last password change or reset has ended.
    const ended =
      sessionStart !== undefined &&
      record?.sessionsValidFrom !== undefined &&
      sessionStart < record.sessionsValidFrom;
    // An impersonation whose admin is no longer an admin has no standing.
    const impersonator = impersonation ? await impersonatorOf(impersonation) : undefined;
    if (record && !ended && (!impersonation || impersonator)) {
      user = {
        userId: record.userId,
        email: record.email,
        name: record.name,
        isAdmin: record.isAdmin ?? false,
        currentTeamId: record.currentTeamId,
        photoUrl: record.photoUrl,
        twoFactorEnabled: record.twoFactorSecret !== undefined,
        onboardingUseCase: record.onboardingUseCase,
        emailVerified: record.emailVerifiedAt !== undefined,
        ...(impersonator ? { impersonator } : {}),
      };
    }
  }
  if (user?.impersonator && READ_ONLY_WHILE_IMPERSONATING.has(routeKey(route)))
    throw forbidden(IMPERSONATION_READ_ONLY);
  const ctx: AuthContext = {
    ...(user ? { user } : {}),
    ...(token ? { sessionToken: token } : {}),
    ...(bearer ? { viaToken: true } : {}),
  };
  switch (route.access) {
    case 'public':
    case 'stripe':
      return ctx;
    case 'user':
      if (!user) throw unauthenticated();
      return ctx;
    case 'admin':
      if (!user) throw unauthenticated();
      if (!user.isAdmin) throw forbidden();
      return ctx;
    case 'owner':
    case 'manager': {
      if (!user) throw unauthenticated();
      const teamId = event.pathParameters?.id;
      if (!teamId) throw notFound();
      const membership = (await db().Membership.get({ teamId, userId: user.userId }).go()).data;
      if (!membership) throw notFound();
      const team = (await db().Team.get({ teamId }).go()).data;
      if (!team) throw notFound();
      const isOwner = team.ownerId === user.userId;
      if (isOwner || (route.access === 'manager' && membership.role === 'admin')) return ctx;
      throw forbidden();
    }
  }
}
