/**
 * Each team's render signing secrets (docs/developer-api.md "Signed render URLs"): made and
 * rotated from the team's settings, stored sealed like provider credentials (envelope
 * encryption in functions/lib/secrets.ts, encryption context `{ teamId, purpose }`), shown once
 * when made and never answered again.
 *
 * A rotation keeps the previous secret valid until a set time (the overlap), so URLs already
 * sent keep working while the team moves to the new secret; an overlap of 0 ends it at once.
 */
import { randomBytes } from 'node:crypto';
import { conflict } from '#lib/errors.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { openSecret, sealSecret, secretKeys, type SealedSecret } from '#lib/secrets.ts';

/** The visible prefix of a signing secret (leaked ones are easy to find in code and logs). */
const PREFIX = 'pss_';

const contextOf = (teamId: string) => ({ teamId, purpose: 'render-signing' });

/** What the settings show of a team's secrets: never the secrets. */
export interface SigningSecretStatus {
  exists: boolean;
  /** ISO 8601, when the current secret was made; null without one. */
  created_at: string | null;
  /** ISO 8601, when the previous secret stops verifying; null when none still verifies. */
  previous_valid_until: string | null;
}

/**
 * What the team's settings show.
 * @param now ms since the epoch (tests).
 */
export async function signingSecretStatus(
  teamId: string,
  now = Date.now(),
): Promise<SigningSecretStatus> {
  const item = (await db().SigningSecret.get({ teamId }).go()).data;
  const until = item?.previousValidUntil;
  return {
    exists: item !== null,
    created_at: item?.currentCreatedAt ?? null,
    previous_valid_until: until && Date.parse(until) > now ? until : null,
  };
}

/**
 * Makes the team's first signing secret, or rotates it: the current one becomes the previous,
 * valid for `overlapSeconds` more (none when 0); an earlier previous one ends.
 * @param overlapSeconds 0 to {@link MAX_SIGNING_OVERLAP_SECONDS}.
 * @returns the new secret (shown once) and the status after the change.
 * @throws AppError 409 when another rotation of the team's secret happened meanwhile.
 */
export async function rotateSigningSecret(
  teamId: string,
  userId: string,
  overlapSeconds: number,
  now = Date.now(),
): Promise<SigningSecretStatus & { secret: string }> {
  const item = (await db().SigningSecret.get({ teamId }).go()).data;
  const secret = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  const sealed = JSON.stringify(await sealSecret(secret, contextOf(teamId), secretKeys()));
  const createdAt = new Date(now).toISOString();
  const previousValidUntil =
    item && overlapSeconds > 0 ? new Date(now + overlapSeconds * 1000).toISOString() : undefined;
  try {
    await db()
      .SigningSecret.put({
        teamId,
        current: sealed,
        currentCreatedAt: createdAt,
        createdBy: userId,
        ...(item && previousValidUntil ? { previous: item.current, previousValidUntil } : {}),
      })
      // Only over what was read: two rotations at once must not both believe they won.
      .where((attr, op) =>
        item
          ? op.eq(attr.currentCreatedAt, item.currentCreatedAt)
          : op.notExists(attr.currentCreatedAt),
      )
      .go({ response: 'none' });
  } catch (error) {
    if (isConditionFailure(error))
      throw conflict('The signing secret was changed meanwhile. Reload and try again.');
    throw error;
  }
  return {
    secret,
    exists: true,
    created_at: createdAt,
    previous_valid_until: previousValidUntil ?? null,
  };
}

/** A team's secrets that verify now: the current first, then the previous until its end. */
export interface SigningKeys {
  secrets: string[];
  /** ms since the epoch when the previous secret stops verifying; undefined without one. */
  previousValidUntil?: number;
}

/**
 * The team's secrets, opened (render path: functions/render/signature.ts keeps them a short
 * while). A previous secret whose overlap has ended is left out.
 * @returns no secrets when the team has none.
 * @throws the table's or the key service's error; SecretError when a secret does not open.
 */
export async function loadSigningKeys(teamId: string, now = Date.now()): Promise<SigningKeys> {
  const item = (await db().SigningSecret.get({ teamId }).go()).data;
  if (!item) return { secrets: [] };
  const open = (json: string) =>
    openSecret(JSON.parse(json) as SealedSecret, contextOf(teamId), secretKeys());
  const until = item.previousValidUntil ? Date.parse(item.previousValidUntil) : NaN;
  if (!item.previous || !(until > now)) return { secrets: [await open(item.current)] };
  const [current, previous] = await Promise.all([open(item.current), open(item.previous)]);
  return { secrets: [current, previous], previousValidUntil: until };
}
