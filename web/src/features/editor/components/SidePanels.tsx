import { useId } from 'react';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { PANELS, type PanelName } from '../store/uiSlice.ts';
import { SnippetPanel } from './SnippetPanel.tsx';
import { TemplatesPanel } from './TemplatesPanel.tsx';

const TITLES: Record<PanelName, string> = {
  templates: 'Templates',
  images: 'Images',
  snippets: 'Snippets',
  stickers: 'Stickers',
};

/** What the panels not built yet will hold (spec 000 §2), said plainly. */
const LATER: Record<Exclude<PanelName, 'snippets' | 'templates'>, string> = {
  images:
    'The image library, your uploads and the stock-photo search arrive with the image library. To use another photo now, create a new PicSnippet from the dashboard.',
  stickers:
    'Sticker packs, your uploads, favourites and the QR code, avatar, hosted image and screenshot stickers arrive with the sticker tools.',
};

/**
 * The four side panels (spec 000 §2 "Four floating side panels, one open at a time"): a rail of
 * toggle buttons and the open panel. The Snippets panel is complete; the library panels come
 * with the libraries issue and say so.
 */
export function SidePanels() {
  const { store } = useEditorContext();
  const open = useEditor((s) => s.panel);
  const headingId = useId();
  return (
    <div className="editor-panels">
      <div className="editor-rail" role="toolbar" aria-label="Panels" aria-orientation="vertical">
        {PANELS.map((panel) => (
          <button
            key={panel}
            type="button"
            className="editor-rail__button"
            aria-pressed={open === panel}
            onClick={() => store.getState().togglePanel(panel)}
          >
            {TITLES[panel]}
          </button>
        ))}
      </div>
      {open && (
        <section className="editor-panel card" aria-labelledby={headingId}>
          <h2 id={headingId} className="editor-panel__title">
            {TITLES[open]}
          </h2>
          {open === 'snippets' ? (
            <SnippetPanel />
          ) : open === 'templates' ? (
            <TemplatesPanel />
          ) : (
            <p className="muted small">{LATER[open]}</p>
          )}
        </section>
      )}
    </div>
  );
}
