/**
 * API tokens (docs/developer-api.md "Tokens": "Security and tokens"; docs/adr/0010-api-tokens.md
 * "API tokens"): 256-bit random tokens shown once, stored as SHA-256, used as `Authorization:
 * Bearer` within their abilities.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Ability } from '#shared/contract/auth.ts';
import { db } from './db/index.ts';

/** Visible prefix that makes leaked tokens easy to find in code and logs. */
const PREFIX = 'pst_';

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

/**
 * Creates a token for a user.
 * @param expiresAt when it stops working (ISO 8601), or undefined for a token that works until
 *   revoked.
 * @returns the token (shown once, never stored) and its id.
 */
export async function createApiToken(
  userId: string,
  name: string,
  abilities: Ability[],
  expiresAt?: string,
) {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  const tokenId = randomUUID();
  await db()
    .ApiToken.create({
      userId,
      tokenId,
      name,
      abilities,
      tokenHash: hashToken(token),
      ...(expiresAt ? { expiresAt } : {}),
    })
    .go();
  return { token, tokenId };
}

/**
 * Deletes every API token of a user (after a password change or reset, when asked).
 * @returns how many were deleted.
 */
export async function revokeApiTokens(userId: string): Promise<number> {
  const tokens = (await db().ApiToken.query.byUser({ userId }).go({ pages: 'all' })).data;
  if (tokens.length > 0)
    await db()
      .ApiToken.delete(tokens.map((t) => ({ userId, tokenId: t.tokenId })))
      .go();
  return tokens.length;
}

/** `lastUsedAt` is written at most this often per token, ms (no write per API call). */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/**
 * The user behind a Bearer token, the token's id and its abilities, or undefined for an unknown or
 * expired one. Marks the token used (at most every 5 minutes), for the "last used" column.
 */
export async function readApiToken(
  token: string,
  now = Date.now(),
): Promise<{ userId: string; tokenId: string; abilities: string[] } | undefined> {
  if (!token.startsWith(PREFIX) || token.length > 200) return undefined;
  const found = (
    await db()
      .ApiToken.query.byHash({ tokenHash: hashToken(token) })
      .go({ limit: 1 })
  ).data[0];
  if (!found) return undefined;
  if (found.expiresAt && Date.parse(found.expiresAt) <= now) return undefined;
  if (!found.lastUsedAt || now - Date.parse(found.lastUsedAt) > TOUCH_EVERY_MS) {
    await db()
      .ApiToken.patch({ userId: found.userId, tokenId: found.tokenId })
      .set({ lastUsedAt: new Date(now).toISOString() })
      .go();
  }
  return { userId: found.userId, tokenId: found.tokenId, abilities: found.abilities };
}
