import { useState } from 'react';
import { Modal } from '../../../components/Modal.tsx';
import { shortcutLabel } from '../keyboard.ts';
import { IS_MAC } from './EditorToolbar.tsx';

/** The shortcuts a person can use in the editor (commands.ts declares them). */
const SHORTCUTS: [string, string][] = [
  ['Mod+z', 'Undo'],
  ['Mod+Shift+z', 'Redo'],
  ['Mod+b', 'Bold'],
  ['Mod+i', 'Italic'],
  ['Mod+u', 'Underline'],
  ['Delete', 'Delete the selected text snippet (asks first)'],
  ['Shift+ArrowRight', 'Move the selection 10 px (arrows alone: 1 px)'],
  ['Escape', 'Deselect'],
  ['Alt+ArrowRight', 'In the Text field: move a merge field one word'],
];

/**
 * The editor's Help link (docs/editor.md "Architecture": "Help link to a support page"). The
 * product has no support site yet, so Help opens the editor's own help page in a dialog: merge
 * fields, fallbacks and the shortcuts (docs/adr/0031-editor-text-tools.md "Editor text tools").
 */
export function HelpLink() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="editor-help__link" onClick={() => setOpen(true)}>
        Help
      </button>
      <Modal
        open={open}
        title="Editor help"
        onCancel={() => setOpen(false)}
        actions={
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>
            Close
          </button>
        }
      >
        <p>
          Add a text snippet in the Snippets panel, then write its text. A merge field in double
          braces, like <code>{'{{first_name}}'}</code>, is filled from the image address (
          <code>?first_name=Ana</code>); its fallback shows when there is no value.
        </p>
        <p>Select a snippet on the picture to drag it, or to clone, wrap or delete it.</p>
        <table className="editor-help__keys">
          <caption className="field__label">Keyboard shortcuts</caption>
          <tbody>
            {SHORTCUTS.map(([keys, what]) => (
              <tr key={keys}>
                <th scope="row">
                  <kbd>{shortcutLabel(keys, IS_MAC)}</kbd>
                </th>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Modal>
    </>
  );
}
