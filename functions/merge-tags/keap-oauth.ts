/**
 * Keap (formerly Infusionsoft) OAuth2, the authorisation-code flow (docs/export.md; docs/export.md
 * "Keap (Infusionsoft) OAuth" "Choosing infusionsoft without an access token opens the
 * authorization window").
 *
 * 1. The export screen opens `GET /api/merge-tag/infusionsoft/authorize?design={id}` in a
 *    window; it answers a redirect to Keap's authorize page with a `state` that binds the user,
 *    the team and the design, sealed (AES-256-GCM, functions/lib/secrets.ts: tampering is
 *    detected) and valid for 10 minutes.
 * 2. Keap sends the user back to `GET /api/merge-tag/infusionsoft/callback?code&state`. The
 *    state must open, be fresh and name the signed-in user and their current team; then the
 *    code is exchanged at Keap's token endpoint (POST, form-encoded, through the SSRF-safe
 *    client, provider-http.ts) and the access and refresh tokens are stored encrypted for the
 *    team (credentials.ts). The window goes back to the export path, where the screen reloads
 *    the export window that opened it and closes (docs/export.md "Keap (Infusionsoft) OAuth").
 * 3. Keap's refresh tokens rotate: every refresh answers a new one, and the old one stops
 *    working, so the new pair is stored at once (`keapAwareCredentials`).
 *
 * Facts and sources: docs/providers.md "Keap"; without `KEAP_CLIENT_ID` and
 * `KEAP_CLIENT_SECRET` Keap is not connected and the screen offers its built-in fields.
 */
import type { AuthContext } from '#lib/auth.ts';
import { config, type Config } from '#lib/config.ts';
import { badRequest, unauthenticated, validationFailed } from '#lib/errors.ts';
import type { ApiResult } from '#lib/http.ts';
import { logger } from '#lib/logger.ts';
import { openSecret, sealSecret, secretKeys, type SealedSecret } from '#lib/secrets.ts';
import type { UrlGuard } from '#lib/ssrf.ts';
import { LIVE_ADAPTERS } from './adapters.ts';
import type { CredentialStore } from './credentials.ts';
import { providerGetJson, ProviderCallError } from './provider-http.ts';
import { trimEndChar } from '#shared/strings.ts';

/** Keap's authorize page (the user signs in to Keap there). */
export const KEAP_AUTHORIZE_URL = 'https://accounts.infusionsoft.com/app/oauth/authorize';
/** Path of the token endpoint on Keap's API origin (`https://api.infusionsoft.com/token`). */
export const KEAP_TOKEN_PATH = '/token';
/** Where Keap sends the user back, on the product's origin. */
export const KEAP_CALLBACK_PATH = '/api/merge-tag/infusionsoft/callback';
/** Where the export screen starts the flow. */
export const KEAP_AUTHORIZE_PATH = '/api/merge-tag/infusionsoft/authorize';
/** How long a state is accepted, ms. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** An access token this close to its end is refreshed first, ms. */
const REFRESH_MARGIN_MS = 60 * 1000;

/** Messages of the flow (the spec gives none). */
export const KEAP_MESSAGES = {
  badState: 'The Keap authorisation could not be checked. Start again from the export screen.',
  badDesign: 'The PicSnippet to come back to is missing.',
} as const;

/** The Keap app's settings, or undefined when Keap is not configured. */
export function keapApp(
  c: Config = config(),
): { clientId: string; clientSecret: string } | undefined {
  return c.KEAP_CLIENT_ID && c.KEAP_CLIENT_SECRET
    ? { clientId: c.KEAP_CLIENT_ID, clientSecret: c.KEAP_CLIENT_SECRET }
    : undefined;
}

/** The redirect URI registered with Keap: the callback on the product's public origin. */
export const keapRedirectUri = (c: Config = config()): string =>
  `${trimEndChar(c.PUBLIC_URL, '/')}${KEAP_CALLBACK_PATH}`;

/** What a state carries. */
export interface KeapState {
  userId: string;
  teamId: string;
  /** The design whose export screen started the flow (where the window goes back). */
  designId: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

/** The encryption context of a state: bound to its purpose and user. */
const stateContext = (userId: string) => ({ purpose: 'keap-oauth-state', userId });

/** Seals a state for the authorize URL (base64url of the sealed JSON). */
export async function sealState(state: KeapState): Promise<string> {
  const sealed = await sealSecret(JSON.stringify(state), stateContext(state.userId), secretKeys());
  return Buffer.from(JSON.stringify(sealed)).toString('base64url');
}

/**
 * Opens a state for the signed-in user.
 * @returns the state, or undefined when it does not open for this user (tampered, another
 *   user's, not a state), or has expired.
 */
export async function openState(
  raw: string,
  userId: string,
  now = Date.now(),
): Promise<KeapState | undefined> {
  try {
    const sealed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as SealedSecret;
    const state = JSON.parse(
      await openSecret(sealed, stateContext(userId), secretKeys()),
    ) as KeapState;
    return state.userId === userId && state.exp > now ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Keap's authorize URL for a sealed state (response type `code`, scope `full`). */
export function keapAuthorizeUrl(clientId: string, state: string, c: Config = config()): string {
  const url = new URL(KEAP_AUTHORIZE_URL);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', keapRedirectUri(c));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', 'full');
  url.searchParams.set('state', state);
  return url.href;
}

/** The tokens stored for a team (as JSON, sealed by the credential store). */
export interface KeapTokens {
  access_token: string;
  refresh_token: string;
  /** When the access token ends, ms since the epoch. */
  expires_at: number;
}

/** How the token calls reach Keap (the SSRF guard, the API origin, the time budget). */
export interface KeapDeps {
  guard: UrlGuard;
  /** Keap's API origin (`MERGE_TAG_API_URLS` `infusionsoft=` in tests). */
  apiBaseUrl: string;
  timeoutMs: number;
  app: { clientId: string; clientSecret: string };
}

/** Keap's API origin: the configured one, else the live adapter's. */
export const keapApiBase = (baseUrls: Partial<Record<string, string>>): string =>
  trimEndChar(baseUrls.infusionsoft ?? LIVE_ADAPTERS.infusionsoft!.baseUrl, '/');

/** Reads a token answer (`access_token`, `refresh_token`, `expires_in` s). */
function tokensOf(answer: unknown, now: number): KeapTokens {
  const a = answer as Record<string, unknown> | null;
  if (
    !a ||
    typeof a.access_token !== 'string' ||
    typeof a.refresh_token !== 'string' ||
    a.access_token === '' ||
    a.refresh_token === ''
  ) {
    throw new ProviderCallError('bad_answer', 'token answer without tokens');
  }
  const seconds = typeof a.expires_in === 'number' && a.expires_in > 0 ? a.expires_in : 0;
  return {
    access_token: a.access_token,
    refresh_token: a.refresh_token,
    expires_at: now + seconds * 1000,
  };
}

/**
 * One call to Keap's token endpoint. As Keap documents it (docs/providers.md "Keap"): the code
 * exchange sends the app's id and secret in the form; a refresh sends them as HTTP Basic.
 */
async function tokenCall(
  deps: KeapDeps,
  grant:
    | { grant_type: 'authorization_code'; code: string }
    | { grant_type: 'refresh_token'; refresh_token: string },
  now: number,
) {
  const { clientId, clientSecret } = deps.app;
  const exchange = grant.grant_type === 'authorization_code';
  const answer = await providerGetJson(deps.guard, `${deps.apiBaseUrl}${KEAP_TOKEN_PATH}`, {
    headers: exchange
      ? {}
      : { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
    form: exchange
      ? {
          ...grant,
          redirect_uri: keapRedirectUri(),
          client_id: clientId,
          client_secret: clientSecret,
        }
      : grant,
    timeoutMs: deps.timeoutMs,
  });
  return tokensOf(answer, now);
}

/**
 * Exchanges an authorisation code for tokens (grant `authorization_code`).
 * @throws ProviderCallError when Keap refuses the code or the app, or cannot be reached.
 */
export const exchangeCode = (deps: KeapDeps, code: string, now = Date.now()) =>
  tokenCall(deps, { grant_type: 'authorization_code', code }, now);

/**
 * Refreshes the tokens (grant `refresh_token`); Keap answers a NEW refresh token and retires
 * the old one.
 * @throws ProviderCallError as `exchangeCode`.
 */
export const refreshTokens = (deps: KeapDeps, refreshToken: string, now = Date.now()) =>
  tokenCall(deps, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);

/** Reads stored tokens; undefined for a plain access token (pasted, not from the flow). */
export function parseKeapTokens(secret: string): KeapTokens | undefined {
  try {
    const value = JSON.parse(secret) as Partial<KeapTokens>;
    return typeof value.access_token === 'string' &&
      typeof value.refresh_token === 'string' &&
      typeof value.expires_at === 'number'
      ? (value as KeapTokens)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A credential store that keeps Keap's tokens fresh: loading Keap's credential answers its
 * access token, refreshed first when it ends within a minute; the rotated pair is saved before
 * the access token is used. Other platforms pass through.
 * @param keap the token calls' settings, or undefined when Keap is not configured (then a
 *   stored token is answered as it is, and fails at Keap once it has expired).
 * @throws from `load`, when the refresh fails (the caller then treats Keap as not connected).
 */
export function keapAwareCredentials(
  store: CredentialStore,
  keap: KeapDeps | undefined,
  now: () => number = Date.now,
): CredentialStore {
  return {
    ...store,
    async load(teamId, provider) {
      const secret = await store.load(teamId, provider);
      if (provider !== 'infusionsoft' || secret === undefined) return secret;
      const tokens = parseKeapTokens(secret);
      if (!tokens) return secret;
      if (tokens.expires_at - now() > REFRESH_MARGIN_MS || !keap) return tokens.access_token;
      const fresh = await refreshTokens(keap, tokens.refresh_token, now());
      await store.save(teamId, provider, JSON.stringify(fresh), 'keap-refresh');
      logger.info('keap tokens refreshed', { teamId });
      return fresh.access_token;
    },
  };
}

/** The token calls' settings from the deployment, or undefined when Keap cannot be reached. */
export function keapDeps(
  guard: UrlGuard,
  baseUrls: Partial<Record<string, string>>,
  online: boolean,
  c: Config = config(),
): KeapDeps | undefined {
  const app = keapApp(c);
  if (!app || !online) return undefined;
  return { guard, apiBaseUrl: keapApiBase(baseUrls), timeoutMs: 5000, app };
}

/** A design id as the product makes them (the path the window goes back to). */
const DESIGN_ID = /^[A-Za-z0-9_-]{1,100}$/;

const redirect = (location: string): ApiResult => ({
  statusCode: 302,
  headers: { location, 'cache-control': 'no-store' },
  body: '',
});

/** Where the window goes back: the export path of the design, with the outcome. */
const backToExport = (designId: string, outcome: string) =>
  redirect(`/pic-snippet/${encodeURIComponent(designId)}/export?keap=${outcome}`);

/**
 * `GET /api/merge-tag/infusionsoft/authorize?design={id}`: a redirect to Keap's authorize page
 * with a sealed state; back to the export screen with `keap=unavailable` when Keap is not
 * configured or the installation is offline.
 * @throws AppError 401 signed out; 422 `design` without a design id.
 */
export async function keapAuthorize(
  auth: AuthContext,
  designId: string | undefined,
  deps: KeapDeps | undefined,
): Promise<ApiResult> {
  if (!auth.user) throw unauthenticated();
  if (!designId || !DESIGN_ID.test(designId)) {
    throw validationFailed({ design: [KEAP_MESSAGES.badDesign] });
  }
  const teamId = auth.user.currentTeamId;
  if (!deps || !teamId) return backToExport(designId, 'unavailable');
  const state = await sealState({
    userId: auth.user.userId,
    teamId,
    designId,
    exp: Date.now() + STATE_TTL_MS,
  });
  return redirect(keapAuthorizeUrl(deps.app.clientId, state));
}

/**
 * `GET /api/merge-tag/infusionsoft/callback?code&state` (or `?error&state`): checks the state,
 * exchanges the code and stores the tokens for the team, then goes back to the export path
 * (`keap=connected`, `denied`, `failed` or `unavailable`).
 * @throws AppError 401 signed out; 400 when the state does not open for this user, has expired,
 *   or names a team that is no longer the user's current one (nothing is exchanged then).
 */
export async function keapCallback(
  auth: AuthContext,
  query: Record<string, string | undefined>,
  deps: KeapDeps | undefined,
  store: CredentialStore,
): Promise<ApiResult> {
  if (!auth.user) throw unauthenticated();
  const state = query.state ? await openState(query.state, auth.user.userId) : undefined;
  if (!state || state.teamId !== auth.user.currentTeamId) throw badRequest(KEAP_MESSAGES.badState);
  if (query.error || !query.code) return backToExport(state.designId, 'denied');
  if (!deps) return backToExport(state.designId, 'unavailable');
  try {
    const tokens = await exchangeCode(deps, query.code);
    await store.save(state.teamId, 'infusionsoft', JSON.stringify(tokens), auth.user.userId);
  } catch (error) {
    if (!(error instanceof ProviderCallError)) throw error;
    logger.warn('keap code exchange failed', { failure: error.failure, status: error.status });
    return backToExport(state.designId, 'failed');
  }
  return backToExport(state.designId, 'connected');
}
