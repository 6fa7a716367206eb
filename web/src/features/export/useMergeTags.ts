import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../../api/client.ts';
import { providerOf } from '#shared/providers/index.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { fetchMergeTags, type MergeTagList } from './api.ts';
import type { ExportDesign } from './model.ts';

/** The platform's merge tags, as the export screen knows them. */
export type Tags =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'ready'; list: MergeTagList }
  | { state: 'error'; message: string; field?: string };

/** What {@link useMergeTags} loads with besides the platform. */
export interface TagOptions {
  /** An API key typed on the screen. */
  token?: string;
  storeFront?: string;
  /** Keap without a token opens its authorisation window (docs/export.md "The screen"). */
  openOAuth?: boolean;
}

/** Keap's authorisation window for this design (functions/merge-tags/keap-oauth.ts). */
export const keapWindowUrl = (authorizeUrl: string, designId: string) =>
  `${authorizeUrl}?design=${encodeURIComponent(designId)}`;

/** The merge-tag list state after a failed `POST /api/merge-tag`. */
function tagsFailure(error: unknown): Tags {
  const refused = isApiError(error) ? error.errors?.access_token : undefined;
  return refused
    ? { state: 'error', message: refused.join(' '), field: 'access_token' }
    : { state: 'error', message: actionFailure(error) };
}

/**
 * The merge tags of the design's platform (`POST /api/merge-tag`): the saved platform's once
 * when the screen opens, then again through `load` when the platform, the store front or the
 * API key changes. Platforms whose values are typed (`source: 'text'`) have none.
 */
export function useMergeTags(
  design: ExportDesign,
): [Tags, (platform: string, options: TagOptions) => Promise<void>] {
  const [tags, setTags] = useState<Tags>(() =>
    providerOf(design.merge_tag_provider).source === 'text'
      ? { state: 'none' }
      : { state: 'loading' },
  );

  const load = useCallback(
    async (value: string, options: TagOptions) => {
      if (providerOf(value).source === 'text') {
        setTags({ state: 'none' });
        return;
      }
      setTags({ state: 'loading' });
      try {
        const list = await fetchMergeTags(value, {
          ...(options.token ? { accessToken: options.token } : {}),
          storeFront: options.storeFront ?? null,
        });
        setTags({ state: 'ready', list });
        if (
          options.openOAuth &&
          list.connection_needed &&
          !list.credentials_saved &&
          list.authorize_url
        ) {
          window.open(
            keapWindowUrl(list.authorize_url, design.id),
            'keap-authorisation',
            'popup,width=640,height=760',
          );
        }
      } catch (error) {
        setTags(tagsFailure(error));
      }
    },
    [design.id],
  );

  // The saved platform's merge tags, once, when the screen opens.
  useEffect(() => {
    if (providerOf(design.merge_tag_provider).source === 'text') return;
    const controller = new AbortController();
    fetchMergeTags(design.merge_tag_provider ?? '', {
      storeFront: design.merge_tag_storefront,
      signal: controller.signal,
    }).then(
      (list) => setTags({ state: 'ready', list }),
      (error: unknown) => {
        if (!controller.signal.aborted) setTags(tagsFailure(error));
      },
    );
    return () => controller.abort();
  }, [design]);

  return [tags, load];
}
