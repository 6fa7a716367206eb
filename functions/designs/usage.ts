/**
 * Which of a team's designs draw a given user file (docs/security.md "Deleted uploads"): an
 * upload in use is not deleted, so the editor never opens a design on a photo that is gone.
 */
import { db } from '#lib/db/index.ts';
import { type DesignDocument } from '#shared/design.ts';
import { publicFileKey } from '#shared/resources.ts';
import { teamList, templateList } from '#functions/designs/lists.ts';

/** Designs read at most per check: past this the file is treated as in use (never deleted). */
export const MAX_DESIGNS_CHECKED = 10_000;

/** A design that uses a file: its id and title, as the refusal names it. */
export interface DesignUse {
  id: string;
  title: string;
}

/**
 * Whether a design document draws the file: as its base photo (`base_image_key`) or as the image
 * of a plain or uploaded sticker (`graphics_data[].url`, with or without the leading `/` of its
 * served URL).
 * @param key the assets-bucket key (`files/…`).
 */
export function documentUsesFile(document: Partial<DesignDocument>, key: string): boolean {
  if (document.base_image_key === key) return true;
  const stickers: Array<{ url?: unknown }> = Array.isArray(document.graphics_data)
    ? document.graphics_data
    : [];
  return stickers.some((s) => typeof s?.url === 'string' && publicFileKey(s.url) === key);
}

/**
 * The team's designs that draw the file: its active and archived designs and the templates made
 * from them, newest first.
 * @param teamId the team whose designs are read.
 * @param key the assets-bucket key (`files/…`).
 * @returns every design using it, or `{ tooMany: true }` when more than
 *   {@link MAX_DESIGNS_CHECKED} designs would have to be read (the caller then keeps the file).
 */
export async function designsUsingFile(
  teamId: string,
  key: string,
): Promise<{ uses: DesignUse[]; tooMany: boolean }> {
  const uses: DesignUse[] = [];
  let read = 0;
  const lists = [
    teamList(teamId, 'active'),
    teamList(teamId, 'archived'),
    templateList('active'),
    templateList('archived'),
  ];
  for (const listKey of lists) {
    let cursor: string | null = null;
    do {
      const page: { data: unknown[]; cursor: string | null } = await db()
        .Design.query.byListUpdated({ listKey })
        .go({
          order: 'desc',
          attributes: ['designId', 'teamId', 'title', 'document'],
          limit: 100,
          ...(cursor ? { cursor } : {}),
        });
      for (const item of page.data as Array<{
        designId: string;
        teamId: string;
        title: string;
        document: Partial<DesignDocument>;
      }>) {
        if (item.teamId === teamId && documentUsesFile(item.document ?? {}, key)) {
          uses.push({ id: item.designId, title: item.title });
        }
      }
      read += page.data.length;
      if (read > MAX_DESIGNS_CHECKED) return { uses, tooMany: true };
      cursor = page.cursor;
    } while (cursor);
  }
  return { uses, tooMany: false };
}

/**
 * The refusal's text for a file in use, naming up to three designs (spec-less; the editor shows
 * it in the library panel).
 * @example usedByMessage('image', [{ id: 'a', title: 'Welcome' }]) →
 *   'This image is used by the design "Welcome". Replace it there first.'
 */
export function usedByMessage(what: 'image' | 'sticker', uses: DesignUse[], tooMany = false) {
  if (tooMany || uses.length === 0) {
    return `This ${what} may be used by your designs. Replace it there first.`;
  }
  const named = uses.slice(0, 3).map((u) => `"${u.title}"`);
  const more = uses.length > 3 ? ` and ${uses.length - 3} more` : '';
  return uses.length === 1
    ? `This ${what} is used by the design ${named[0]}. Replace it there first.`
    : `This ${what} is used by ${uses.length} designs: ${named.join(', ')}${more}. Replace it there first.`;
}
