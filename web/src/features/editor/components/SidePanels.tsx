import { useId } from 'react';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { PANELS, type PanelName } from '../store/uiSlice.ts';
import { ImagesPanel } from './ImagesPanel.tsx';
import { RulesPanel } from './RulesPanel.tsx';
import { DataPanel } from './DataPanel.tsx';
import { SnippetPanel } from './SnippetPanel.tsx';
import { StickersPanel } from './StickersPanel.tsx';
import { TemplatesPanel } from './TemplatesPanel.tsx';

const TITLES: Record<PanelName, string> = {
  templates: 'Templates',
  images: 'Images',
  snippets: 'Snippets',
  stickers: 'Stickers',
  rules: 'Rules',
  data: 'Data',
};

/**
 * The side panels (docs/editor.md "Architecture"; Snippets, Images, Stickers, Rules, Data…), one
 * open at a time: a rail of toggle buttons and the open panel.
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
          ) : open === 'images' ? (
            <ImagesPanel />
          ) : open === 'rules' ? (
            <RulesPanel />
          ) : open === 'data' ? (
            <DataPanel />
          ) : (
            <StickersPanel />
          )}
        </section>
      )}
    </div>
  );
}
