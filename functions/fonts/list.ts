/**
 * A team's uploaded fonts as the editor and the render service use them (docs/fonts.md "Uploads"
 * `customFonts`): DynamoDB only, so the render Lambda imports no upload code.
 */
import { db } from '#lib/db/index.ts';
import type { CustomFont } from '#shared/fonts/types.ts';

/** The team's uploaded fonts, sorted by family name; `url` is the same-origin file path. */
export async function teamCustomFonts(teamId: string): Promise<CustomFont[]> {
  const items = (await db().CustomFont.query.byTeam({ teamId }).go({ pages: 'all' })).data;
  return items
    .map((f) => ({ family: f.family, url: `/${f.key}`, format: f.format }))
    .sort((a, b) => a.family.localeCompare(b.family, 'en'));
}
