/**
 * The editor's layout parts around the canvas (docs/editor.md "Layout"): the image toolbar's fold
 * and the selected object's settings column. The rules that place them are ../layout.css.
 */
import { useId, useState } from 'react';
import { useEditor } from '../EditorContext.tsx';
import { selectedSnippet, selectedSticker } from '../store/selectionSlice.ts';
import { EditorToolbar } from './EditorToolbar.tsx';
import { StickerToolbar } from './StickerTools.tsx';
import { TextToolbar } from './TextToolbar.tsx';

/**
 * The image toolbar (EditorToolbar.tsx) over the canvas. In one column (../layout.css, 991 px or
 * less) its many controls would take the canvas's room, so they fold behind an "Image tools"
 * button (`aria-expanded`), folded at first; on a wider window the button is hidden and the
 * toolbar shows.
 */
export function ImageTools() {
  const [open, setOpen] = useState(false);
  const toolsId = useId();
  return (
    <div className="editor-image-tools" data-open={open}>
      <button
        type="button"
        className="button button--small button--secondary editor-image-tools__toggle"
        aria-expanded={open}
        aria-controls={toolsId}
        onClick={() => setOpen((was) => !was)}
      >
        Image tools <span aria-hidden="true">{open ? '▾' : '▸'}</span>
      </button>
      <div id={toolsId} className="editor-image-tools__body">
        <EditorToolbar />
      </div>
    </div>
  );
}

/**
 * The selected object's settings (docs/editor.md "Layout"): the text tools or the sticker's tools,
 * in a column beside the canvas that scrolls on its own, so however long they are the canvas
 * stays where it is. With nothing selected it says where the settings come from. On a narrow
 * window (../layout.css, 991 px) the column is a sheet under the canvas that its heading's button
 * folds away (`aria-expanded`); the button is hidden on a wide one, where the column always shows.
 */
export function SettingsColumn() {
  const selected = useEditor((s) => selectedSnippet(s) !== null || selectedSticker(s) !== null);
  const [open, setOpen] = useState(true);
  const labelId = useId();
  const bodyId = useId();
  return (
    <aside className="editor-settings" aria-labelledby={labelId} data-open={open}>
      <h2 className="editor-settings__title">
        <span id={labelId} className="editor-settings__label">
          Object settings
        </span>
        <button
          type="button"
          className="button button--small button--secondary editor-settings__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((was) => !was)}
        >
          Object settings <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
      </h2>
      <div id={bodyId} className="editor-settings__body">
        {!selected && (
          <p className="muted small">
            Select a text or a sticker on the canvas (or in the Snippets panel) to change it here.
          </p>
        )}
        <TextToolbar />
        <StickerToolbar />
      </div>
    </aside>
  );
}
