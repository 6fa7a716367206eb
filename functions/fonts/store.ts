/**
 * A team's uploaded fonts (docs/fonts.md "The catalogue" Fonts, docs/fonts.md "Uploads" `GET
 * /getCustomFonts`, `POST /storeFont`): files under `files/fonts/custom/{teamId}/` in the assets
 * bucket (served at `/files/…` with a random name), one `CustomFont` item per team and family.
 */
import { createHash } from 'node:crypto';
import { db } from '#lib/db/index.ts';
import { validationFailed } from '#lib/errors.ts';
import { deleteUserFile, storeUserFile } from '#lib/uploads.ts';
import { CUSTOM_FONTS_PATH } from '#shared/fonts/catalogue.ts';
import type { CustomFont } from '#shared/fonts/types.ts';
import type { CheckedFont } from './validate.ts';

const CONTENT_TYPES = { truetype: 'font/ttf', opentype: 'font/otf', woff: 'font/woff' } as const;

/** The same-origin folder of a team's font files (`fontsPath` of docs/fonts.md "Uploads"). */
export const teamFontsPath = (teamId: string): string =>
  `${CUSTOM_FONTS_PATH}/${encodeURIComponent(teamId)}/`;

/** docs/fonts.md "Uploads" `customFonts`: the names and, index by index, the path of each file. */
export const customFontsView = (fonts: readonly CustomFont[]) => ({
  names: fonts.map((f) => f.family),
  path: fonts.map((f) => f.url),
});

/**
 * Stores a checked font for the team: the file first, then the item (conditional on the
 * family being new), so a refused or failed upload leaves nothing behind.
 * @returns the stored font and whether it was already there (the same file again).
 * @throws AppError 422 `{ file: [message] }` when the team has another file of that family.
 */
export async function storeCustomFont(
  teamId: string,
  userId: string,
  font: CheckedFont,
): Promise<{ font: CustomFont; existed: boolean }> {
  const familyKey = font.family.toLowerCase();
  const sha256 = createHash('sha256').update(font.bytes).digest('hex');
  const duplicate = () =>
    validationFailed({
      file: [`A font named “${font.family}” is already uploaded. Rename or remove it first.`],
    });
  const existing = (await db().CustomFont.get({ teamId, familyKey }).go()).data;
  if (existing) {
    if (existing.sha256 !== sha256) throw duplicate();
    return {
      font: { family: existing.family, url: `/${existing.key}`, format: existing.format },
      existed: true,
    };
  }
  const stored = await storeUserFile(
    `fonts/custom/${teamId}`,
    font.bytes,
    CONTENT_TYPES[font.format],
    font.extension,
  );
  try {
    await db()
      .CustomFont.create({
        teamId,
        familyKey,
        family: font.family,
        key: stored.key,
        format: font.format,
        bytes: font.bytes.length,
        sha256,
        uploadedBy: userId,
      })
      .go();
  } catch (error) {
    await deleteUserFile(stored.url);
    // A concurrent upload of the same family won the conditional create.
    if ((error as Error).message?.includes('conditional')) throw duplicate();
    throw error;
  }
  return { font: { family: font.family, url: stored.url, format: font.format }, existed: false };
}
