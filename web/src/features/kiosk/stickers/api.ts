/**
 * The kiosk's sticker pack calls (docs/kiosk.md "Sticker packs"; shared/contract/kiosk-packs.ts)
 * and their query keys. Pack lists sit in the `stickers` family (web/src/state/queryKeys.ts),
 * so a change here also reaches the editor's sticker lists when they are read again.
 */
import type { AnswerOf } from '#shared/contract/index.ts';
import type { KioskPack } from '#shared/contract/kiosk-packs.ts';
import { apiUpload, call, type UploadProgress } from '../../../api/client.ts';
import type { Page } from '../../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../../state/queryKeys.ts';

export const packKeys = {
  /** Every kiosk pack list. */
  all: [...queryKeys.stickers.all, 'kiosk'] as const,
  /** The kiosk's pack list for a search (`''`: every pack), paged. */
  list: (search: string) => [...queryKeys.stickers.all, 'kiosk', search] as const,
};

/** What the next page call sends: the page number, from 1. */
type NextPage = number;

/**
 * One page of packs (`POST /packs/search`; every pack, removed ones included, 24 a page).
 * @param page from 1.
 * @throws {ApiError} as `call` does.
 */
export async function fetchPackPage(
  search: string,
  page: number,
  signal: AbortSignal,
): Promise<Page<KioskPack, NextPage>> {
  const answer = await call('POST /packs/search', { body: { search }, query: { page }, signal });
  return {
    items: answer.data,
    next: answer.current_page < answer.last_page ? answer.current_page + 1 : null,
  };
}

/**
 * Removes a pack from every library, or brings it back (`DELETE /packs/removePack`,
 * `PATCH /packs/restorePack`).
 * @returns the spec's message and the pack after the change.
 * @throws {ApiError} 404 with "The pack wasn't deleted." / "…restored." for an unknown pack.
 */
export function setPackState(
  packId: string,
  to: 'removed' | 'active',
): Promise<AnswerOf<'DELETE /packs/removePack'>> {
  return to === 'removed'
    ? call('DELETE /packs/removePack', { body: { packId } })
    : call('PATCH /packs/restorePack', { body: { packId } });
}

/**
 * Imports a pack from a zip archive (`POST /packs/download`, multipart `archive`).
 * @param onProgress bytes sent so far and the total.
 * @throws {ApiError} 422 with `errors.archive` for a refused archive, 409 for a pack name in use.
 */
export function importPackArchive(
  file: File,
  onProgress: (progress: UploadProgress) => void,
): Promise<AnswerOf<'POST /packs/download'>> {
  const form = new FormData();
  form.append('archive', file, file.name);
  return apiUpload('/packs/download', form, onProgress);
}
