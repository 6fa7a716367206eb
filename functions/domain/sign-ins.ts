/**
 * The sign-in history the kiosk's user profile shows (docs/security.md "Sessions and tokens":
 * "Kiosk"; docs/kiosk.md "Users, impersonation and discounts"): each user's last {@link
 * SIGN_INS_KEPT} successful sign-ins, newest first, in one item per user.
 */
import { db } from '#lib/db/index.ts';
import { SIGN_INS_KEPT } from '#lib/db/entities-kiosk-users.ts';

/** Longest user agent kept, characters (a header can be kilobytes). */
const USER_AGENT_CHARS = 200;

/** One sign-in: when (ISO 8601), the client address and the browser's user agent. */
export interface SignIn {
  at: string;
  ip: string;
  userAgent: string;
}

/**
 * Records a successful sign-in: the entry goes first and the list is cut to
 * {@link SIGN_INS_KEPT}. Two sign-ins of the same user at the same instant may keep only one
 * (last writer wins), which a history for admins can afford.
 */
export async function recordSignIn(
  userId: string,
  ip: string,
  userAgent: string | undefined,
  at = new Date(),
): Promise<void> {
  const entry: SignIn = {
    at: at.toISOString(),
    ip,
    userAgent: (userAgent ?? '').slice(0, USER_AGENT_CHARS),
  };
  const before = await signIns(userId);
  await db()
    .SignInHistory.put({ userId, entries: [entry, ...before].slice(0, SIGN_INS_KEPT) })
    .go();
}

/** A user's recorded sign-ins, newest first (at most {@link SIGN_INS_KEPT}). */
export async function signIns(userId: string): Promise<SignIn[]> {
  const item = (await db().SignInHistory.get({ userId }).go()).data;
  return (item?.entries ?? []).slice(0, SIGN_INS_KEPT);
}
