/**
 * The export screen (web/src/features/export/ExportScreen.tsx) opened for a component test on a
 * 600×400 design titled "Dance" with no texts or stickers but `fields`, the platform `provider`
 * chosen, its merge tags answered and the custom-data dialog already seen.
 */
import { createElement } from 'react';
import { toExportDesign } from '../features/export/api.ts';
import { ExportScreen } from '../features/export/ExportScreen.tsx';
import { CUSTOM_DATA_MODAL_KEY } from '../features/export/model.ts';
import { answer } from './api.ts';
import { aMergeTagList, aUser } from './fixtures.ts';
import { renderWithProviders } from './TestProviders.tsx';

/**
 * Renders the export screen signed in, as described above.
 * @param fields the design's fields over the defaults, as `GET /api/pic-snippet/{id}` gives them.
 * @returns what `renderWithProviders` returns (its `user` for clicks).
 */
export function openExportScreen(provider: string, fields: Record<string, unknown>) {
  window.localStorage.setItem(CUSTOM_DATA_MODAL_KEY, '0');
  const design = toExportDesign({
    id: 'd1',
    title: 'Dance',
    version: 3,
    base_url: 'https://cdn.example.com/r/abc',
    canvas_width: 600,
    canvas_height: 400,
    merge_tag_provider: provider,
    merge_tag_choices: [],
    text_snippets: [],
    graphics_data: [],
    ...fields,
  });
  answer('POST /api/merge-tag', 200, aMergeTagList(provider));
  return renderWithProviders(createElement(ExportScreen, { design, team: null, storeFronts: [] }), {
    signedInAs: aUser(),
  });
}
