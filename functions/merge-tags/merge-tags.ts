/**
 * `POST /api/merge-tag` (docs/adr/0022-export-and-merge-tags.md "Export and merge tags";
 * docs/export.md): the merge tags a provider offers. Always the provider's built-in catalogue of
 * standard fields and a free-text field; with credentials and a connection, also the account's own
 * fields from the platform's API (adapters.ts). Without credentials, or offline, the answer says
 * that live fields need a connection, and the screen shows it.
 */
import { config } from '#lib/config.ts';
import { validationFailed } from '#lib/errors.ts';
import { logger } from '#lib/logger.ts';
import type { UrlGuard } from '#lib/ssrf.ts';
import {
  providerOf,
  type MergeTagChoice,
  type Provider,
  type ProviderValue,
} from '#shared/providers/index.ts';
import { LIVE_ADAPTERS, apiBaseUrls, type LiveAdapter } from './adapters.ts';
import { dynamoCredentials, type CredentialStore } from './credentials.ts';
import { keapAwareCredentials, keapDeps } from './keap-oauth.ts';
import { ProviderCallError, providerGetJson, providerGuard } from './provider-http.ts';
import { trimEndChar } from '#shared/strings.ts';
import type { MergeTagList } from '#shared/contract/merge-tags.ts';

/**
 * What `POST /api/merge-tag` answers (shared/contract/merge-tags.ts `MergeTagListSchema`); the
 * handler adds Keap's `authorize_url`.
 */
export type MergeTagAnswer = Omit<MergeTagList, 'authorize_url'>;

export interface MergeTagRequest {
  provider: ProviderValue;
  /** The platform credential (Klaviyo private key, Keap OAuth token, ManyChat page API key). */
  accessToken?: string | undefined;
  /** Klaviyo's storefront (GET /api/merge-tag/storeFront). */
  storeFront?: string | undefined;
  /** The caller's current team and user: credentials are saved per team. */
  teamId?: string | undefined;
  userId?: string | undefined;
}

export interface MergeTagDeps {
  mode: 'online' | 'offline';
  guard: UrlGuard;
  baseUrls: Partial<Record<ProviderValue, string>>;
  /** Per call, ms. */
  timeoutMs: number;
  /** Where accepted credentials are kept; none: nothing is saved. */
  credentials?: CredentialStore;
}

/** The deployment's settings (functions/lib/config.ts `MERGE_TAGS_MODE`, `MERGE_TAG_API_URLS`). */
export function configuredDeps(): MergeTagDeps {
  const c = config();
  const mode = c.MERGE_TAGS_MODE ?? (c.STAGE === 'aws' ? 'online' : 'offline');
  const guard = providerGuard();
  const baseUrls = apiBaseUrls(c.MERGE_TAG_API_URLS);
  return {
    mode,
    guard,
    baseUrls,
    timeoutMs: 5000,
    // Keap's stored OAuth tokens are refreshed (and the rotated pair saved) as they are loaded.
    credentials: keapAwareCredentials(
      dynamoCredentials,
      keapDeps(guard, baseUrls, mode === 'online', c),
    ),
  };
}

/** Catalogue first, then live fields not already in it. */
function merged(catalogue: MergeTagChoice[], live: MergeTagChoice[]): MergeTagChoice[] {
  const byValue = new Map<string, MergeTagChoice>();
  for (const choice of [...catalogue, ...live]) {
    if (!byValue.has(choice.merge_tag_value)) byValue.set(choice.merge_tag_value, choice);
  }
  return [...byValue.values()];
}

function answer(
  provider: Provider,
  catalogue: MergeTagChoice[],
  live: MergeTagChoice[] | undefined,
  message?: string,
): MergeTagAnswer {
  return {
    success: true,
    provider: provider.value,
    merge_tags: merged(catalogue, live ?? []),
    live: live !== undefined,
    connection_needed: live === undefined && provider.connection !== 'none',
    free_text: true,
    ...(message ? { message } : {}),
    credentials_saved: false,
  };
}

/** Calls one adapter with the deployment's base URL, guard and time budget. */
function callAdapter(
  value: ProviderValue,
  adapter: LiveAdapter,
  token: string,
  deps: MergeTagDeps,
): Promise<MergeTagChoice[]> {
  const base = trimEndChar(deps.baseUrls[value] ?? adapter.baseUrl, '/');
  return adapter.fields(
    (path, headers) =>
      providerGetJson(deps.guard, `${base}${path}`, { headers, timeoutMs: deps.timeoutMs }),
    token,
  );
}

/** The credential to use: the one given, else the team's saved one. */
async function credentialFor(
  provider: Provider,
  request: MergeTagRequest,
  deps: MergeTagDeps,
): Promise<{ token: string; saved: boolean } | undefined> {
  const given = request.accessToken?.trim() ?? '';
  if (given !== '') return { token: given, saved: false };
  if (!request.teamId || !deps.credentials) return undefined;
  try {
    const stored = await deps.credentials.load(request.teamId, provider.value);
    return stored ? { token: stored, saved: true } : undefined;
  } catch (error) {
    logger.warn('saved merge-tag credential unreadable', {
      provider: provider.value,
      error: (error as Error).message,
    });
    return undefined;
  }
}

/** Keeps a credential the platform accepted, for the team's next exports; never fails the call. */
async function remember(
  provider: Provider,
  request: MergeTagRequest,
  token: string,
  deps: MergeTagDeps,
) {
  if (!request.teamId || !request.userId || !deps.credentials) return false;
  try {
    await deps.credentials.save(request.teamId, provider.value, token, request.userId);
    return true;
  } catch (error) {
    logger.error('saving a merge-tag credential failed', {
      provider: provider.value,
      error: (error as Error).message,
    });
    return false;
  }
}

/**
 * The merge tags of a provider for the export screen. A credential the platform accepts is
 * saved for the caller's team (encrypted); without one in the request, the team's saved one is
 * used.
 * @throws AppError 422 `{ access_token: [message] }` when the platform refuses the credentials
 *   (a refused saved credential is forgotten); every other failure of a live call answers the
 *   catalogue with a message instead.
 */
export async function listMergeTags(
  request: MergeTagRequest,
  deps: MergeTagDeps,
): Promise<MergeTagAnswer> {
  const provider = providerOf(request.provider);
  const catalogue = provider.catalogue(request.storeFront);
  const adapter = LIVE_ADAPTERS[provider.value];
  if (!adapter || provider.connection === 'none') return answer(provider, catalogue, undefined);
  const credential = await credentialFor(provider, request, deps);
  if (!credential) {
    return answer(
      provider,
      catalogue,
      undefined,
      `Live fields need a connection to ${provider.label}.`,
    );
  }
  const saved = { credentials_saved: credential.saved };
  if (deps.mode === 'offline') {
    return {
      ...answer(
        provider,
        catalogue,
        undefined,
        `Live fields need a connection to ${provider.label}; this installation works offline.`,
      ),
      ...saved,
    };
  }
  try {
    const live = await callAdapter(provider.value, adapter, credential.token, deps);
    const kept = credential.saved || (await remember(provider, request, credential.token, deps));
    return { ...answer(provider, catalogue, live), credentials_saved: kept };
  } catch (error) {
    if (!(error instanceof ProviderCallError)) throw error;
    logger.warn('live merge tags failed', {
      provider: provider.value,
      failure: error.failure,
      status: error.status,
      reason: error.message,
    });
    if (error.failure === 'unauthorized') {
      if (credential.saved) await deps.credentials?.remove(request.teamId!, provider.value);
      throw validationFailed({
        access_token: [
          credential.saved
            ? `${provider.label} no longer accepts the saved credentials; enter them again.`
            : `${provider.label} did not accept these credentials.`,
        ],
      });
    }
    return {
      ...answer(
        provider,
        catalogue,
        undefined,
        `${provider.label} could not be reached; its live fields are not listed.`,
      ),
      ...saved,
    };
  }
}
