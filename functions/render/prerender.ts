/**
 * The render feature's public door for send lists (docs/send-lists.md "The job"): one
 * recipient URL pre-rendered through the render function's own service and caches
 * (handler.ts `prerenderRequest`), and the render's check of characters no font draws.
 */
import type { DesignDocument } from '#shared/design.ts';
import { glyphFilter } from '#shared/scene/glyphs.ts';
import { teamCustomFonts } from '#functions/fonts/list.ts';
import { uploadedFamilies } from './fonts.ts';

export { prerenderRequest } from './handler.ts';

/**
 * The render's glyph check for a design's rows (docs/fonts.md "Never tofu"; renderer.ts
 * `renderDesign`): whether a row's values hold characters no face of the text layers showing
 * them draws, so the render leaves them out. A layer in one of the team's uploaded fonts keeps
 * its text whole, as in the render, so it never counts.
 * @returns a check of one row's values (parameter name → value), synchronous.
 * @throws the table's error when the team's font list cannot be read.
 */
export async function undrawableRows(
  doc: DesignDocument,
  teamId: string,
): Promise<(values: Record<string, string>) => boolean> {
  const uploaded = await uploadedFamilies(
    doc.text_snippets.map((s) => s.fontFamily),
    teamId,
    teamCustomFonts,
  );
  return (values) => {
    let dropped = false;
    const check = glyphFilter({
      ownCoverage: (family) => uploaded.has(family.trim().toLowerCase()),
      onDropped: () => (dropped = true),
    });
    for (const snippet of doc.text_snippets)
      for (const p of snippet.parameters) {
        const value = values[p.param_name];
        if (value) check(value, snippet.fontFamily);
      }
    return dropped;
  };
}
