/**
 * Live merge-tag adapters (docs/export.md): one small adapter per platform whose API lists the
 * fields an account has (Klaviyo, Keap, ManyChat). Each reads one API answer through
 * `providerGetJson` (SSRF rules, time budget, byte cap) and turns it into merge tags with the
 * provider module's syntax (shared/providers). Object values are flattened into names
 * (`Address.city`). Platform facts and sources: docs/providers.md.
 */
import { z } from 'zod';
import {
  keapCustomField,
  klaviyoProperty,
  manychatCustomField,
  providerOf,
  type MergeTagChoice,
  type ProviderValue,
} from '#shared/providers/index.ts';
import { ProviderCallError } from './provider-http.ts';

/** Fetches JSON from a path of the platform's API with the given headers. */
export type ApiGet = (path: string, headers: Record<string, string>) => Promise<unknown>;

export interface LiveAdapter {
  /** The platform's API origin; tests point it at a fake server (MERGE_TAG_API_URLS). */
  baseUrl: string;
  /** The account's fields as merge tags. @throws ProviderCallError */
  fields(get: ApiGet, token: string): Promise<MergeTagChoice[]>;
}

/** Most fields listed from one account: enough for any real account, bounded for a hostile one. */
const MAX_FIELDS = 500;
/** Deepest nesting of an object value that is flattened. */
const MAX_DEPTH = 4;

/** Reads an API answer with a schema; a different shape is a `bad_answer`. */
function read<T>(schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new ProviderCallError('bad_answer', 'unexpected answer shape');
  return parsed.data;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The paths to the leaves of an object (`{ Address: { city: 'x' } }` → `[['Address','city']]`);
 * arrays and scalars are leaves. Paths are unique, in first-seen order.
 */
export function leafPaths(
  value: Record<string, unknown>,
  into = new Map<string, string[]>(),
  prefix: string[] = [],
): Map<string, string[]> {
  for (const [key, child] of Object.entries(value)) {
    if (into.size >= MAX_FIELDS) break;
    const path = [...prefix, key];
    if (isPlainObject(child) && path.length < MAX_DEPTH) leafPaths(child, into, path);
    else into.set(JSON.stringify(path), path);
  }
  return into;
}

const klaviyoProfiles = z.object({
  data: z.array(
    z.object({
      attributes: z.object({ properties: z.record(z.string(), z.unknown()).nullish() }).loose(),
    }),
  ),
});

const manychatFields = z.object({
  data: z.array(z.object({ id: z.union([z.number(), z.string()]), name: z.string() })),
});

const keapModel = z.object({
  custom_fields: z
    .array(z.object({ label: z.string(), field_name: z.string().nullish() }).loose())
    .default([]),
});

/** Drops what a platform's names cannot be written as (a quote in a Klaviyo property). */
function tagOrSkip(make: () => MergeTagChoice): MergeTagChoice[] {
  try {
    return [make()];
  } catch (error) {
    if (error instanceof RangeError) return [];
    throw error;
  }
}

export const LIVE_ADAPTERS: Partial<Record<ProviderValue, LiveAdapter>> = {
  /**
   * Klaviyo: the custom properties seen on the account's profiles (`GET /api/profiles/`, private
   * key in `Authorization: Klaviyo-API-Key …`, `revision` header), nested ones flattened.
   */
  klaviyo: {
    baseUrl: 'https://a.klaviyo.com',
    async fields(get, token) {
      const answer = read(
        klaviyoProfiles,
        await get('/api/profiles/?fields%5Bprofile%5D=properties&page%5Bsize%5D=100', {
          authorization: `Klaviyo-API-Key ${token}`,
          revision: '2024-10-15',
          accept: 'application/vnd.api+json',
        }),
      );
      const paths = new Map<string, string[]>();
      for (const profile of answer.data) leafPaths(profile.attributes.properties ?? {}, paths);
      const klaviyo = providerOf('klaviyo');
      return [...paths.values()].flatMap((path) =>
        tagOrSkip(() => ({
          merge_tag_name: path.join('.'),
          merge_tag_value: klaviyo.mergeTag(klaviyoProperty(...path)),
        })),
      );
    },
  },
  /** Keap: the contact model's custom fields (`GET /crm/rest/v1/contacts/model`, OAuth bearer). */
  infusionsoft: {
    baseUrl: 'https://api.infusionsoft.com',
    async fields(get, token) {
      const model = read(
        keapModel,
        await get('/crm/rest/v1/contacts/model', { authorization: `Bearer ${token}` }),
      );
      const keap = providerOf('infusionsoft');
      return model.custom_fields.slice(0, MAX_FIELDS).map((field) => ({
        merge_tag_name: field.label,
        merge_tag_value: keap.mergeTag(keapCustomField(field.field_name ?? field.label)),
      }));
    },
  },
  /** ManyChat: the page's custom user fields (`GET /fb/page/getCustomFields`, page API key). */
  manychat: {
    baseUrl: 'https://api.manychat.com',
    async fields(get, token) {
      const answer = read(
        manychatFields,
        await get('/fb/page/getCustomFields', { authorization: `Bearer ${token}` }),
      );
      const manychat = providerOf('manychat');
      return answer.data.slice(0, MAX_FIELDS).map((field) => ({
        merge_tag_name: field.name,
        merge_tag_value: manychat.mergeTag(manychatCustomField(field.id)),
      }));
    },
  },
};

/**
 * API origins from `MERGE_TAG_API_URLS` (`klaviyo=https://…,manychat=https://…`); unknown names
 * and empty entries are ignored.
 */
export function apiBaseUrls(setting: string | undefined): Partial<Record<ProviderValue, string>> {
  const out: Partial<Record<ProviderValue, string>> = {};
  for (const entry of (setting ?? '').split(',')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq).trim() as ProviderValue;
    if (LIVE_ADAPTERS[name]) out[name] = entry.slice(eq + 1).trim();
  }
  return out;
}
