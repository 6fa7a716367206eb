/**
 * `POST /api/merge-tag` (spec 001 §7 "Export and merge tags"; issue #9 item 2): the merge tags a
 * provider offers. Always the provider's built-in catalogue of standard fields and a free-text
 * field; with credentials and a connection, also the account's own fields from the platform's
 * API (adapters.ts). Without credentials, or offline, the answer says that live fields need a
 * connection, and the screen shows it.
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
import { ProviderCallError, providerGetJson, providerGuard } from './provider-http.ts';

/** What `POST /api/merge-tag` answers. */
export interface MergeTagAnswer {
  success: true;
  provider: ProviderValue;
  /** `{ merge_tag_name, merge_tag_value }` pairs: the catalogue, then the account's fields. */
  merge_tags: MergeTagChoice[];
  /** Whether the account's own fields were read from the platform. */
  live: boolean;
  /** True when the platform has live fields that this answer could not include. */
  connection_needed: boolean;
  /** A value may always be typed instead of chosen (issue #9 item 2 "a free-text field"). */
  free_text: true;
  /** For the screen, when live fields are missing. */
  message?: string;
}

export interface MergeTagRequest {
  provider: ProviderValue;
  /** The platform credential (Klaviyo private key, Keap OAuth token, ManyChat page API key). */
  accessToken?: string | undefined;
  /** Klaviyo's storefront (GET /api/merge-tag/storeFront). */
  storeFront?: string | undefined;
}

export interface MergeTagDeps {
  mode: 'online' | 'offline';
  guard: UrlGuard;
  baseUrls: Partial<Record<ProviderValue, string>>;
  /** Per call, ms. */
  timeoutMs: number;
}

/** The deployment's settings (functions/lib/config.ts `MERGE_TAGS_MODE`, `MERGE_TAG_API_URLS`). */
export function configuredDeps(): MergeTagDeps {
  const c = config();
  return {
    mode: c.MERGE_TAGS_MODE ?? (c.STAGE === 'aws' ? 'online' : 'offline'),
    guard: providerGuard(),
    baseUrls: apiBaseUrls(c.MERGE_TAG_API_URLS),
    timeoutMs: 5000,
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
  };
}

/** Calls one adapter with the deployment's base URL, guard and time budget. */
function callAdapter(
  value: ProviderValue,
  adapter: LiveAdapter,
  token: string,
  deps: MergeTagDeps,
): Promise<MergeTagChoice[]> {
  const base = (deps.baseUrls[value] ?? adapter.baseUrl).replace(/\/+$/, '');
  return adapter.fields(
    (path, headers) =>
      providerGetJson(deps.guard, `${base}${path}`, { headers, timeoutMs: deps.timeoutMs }),
    token,
  );
}

/**
 * The merge tags of a provider for the export screen.
 * @throws AppError 422 `{ access_token: [message] }` when the platform refuses the credentials;
 *   every other failure of a live call answers the catalogue with a message instead.
 */
export async function listMergeTags(
  request: MergeTagRequest,
  deps: MergeTagDeps,
): Promise<MergeTagAnswer> {
  const provider = providerOf(request.provider);
  const catalogue = provider.catalogue(request.storeFront);
  const adapter = LIVE_ADAPTERS[provider.value];
  const token = request.accessToken?.trim() ?? '';
  if (!adapter || provider.connection === 'none') return answer(provider, catalogue, undefined);
  if (token === '') {
    return answer(
      provider,
      catalogue,
      undefined,
      `Live fields need a connection to ${provider.label}.`,
    );
  }
  if (deps.mode === 'offline') {
    return answer(
      provider,
      catalogue,
      undefined,
      `Live fields need a connection to ${provider.label}; this installation works offline.`,
    );
  }
  try {
    return answer(provider, catalogue, await callAdapter(provider.value, adapter, token, deps));
  } catch (error) {
    if (!(error instanceof ProviderCallError)) throw error;
    logger.warn('live merge tags failed', {
      provider: provider.value,
      failure: error.failure,
      status: error.status,
      reason: error.message,
    });
    if (error.failure === 'unauthorized') {
      throw validationFailed({
        access_token: [`${provider.label} did not accept these credentials.`],
      });
    }
    return answer(
      provider,
      catalogue,
      undefined,
      `${provider.label} could not be reached; its live fields are not listed.`,
    );
  }
}
