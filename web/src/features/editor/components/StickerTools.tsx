/**
 * The selected sticker's tools (spec 000 §4 "Selection overlay … Regular stickers: clone and
 * delete. Dynamic stickers: delete only"; §2 QR code / screenshot toolbar) and the 'Delete
 * Sticker?' confirmation (spec 000 §8). Shown under the image toolbar while a sticker is
 * selected.
 */
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { selectedSticker } from '../store/selectionSlice.ts';
import { QrToolbar } from './QrToolbar.tsx';

/** What a sticker is called in the tools' label. */
const KIND: Record<string, string> = {
  qrCode: 'QR code',
  gravatar: 'Gravatar',
  hostedImage: 'Hosted image',
  screenShot: 'Screenshot',
};

/** The selected sticker's toolbar, or nothing when no sticker is selected. */
export function StickerToolbar() {
  const { store } = useEditorContext();
  const sticker = useEditor(selectedSticker);
  if (!sticker) return null;
  const dynamic = sticker.stickerType === 'dynamicSticker';
  const name = dynamic ? (KIND[sticker.dynamicStickerType ?? ''] ?? 'Dynamic sticker') : 'Sticker';
  return (
    <div
      className="editor-toolbar editor-sticker-tools"
      role="toolbar"
      aria-label={`${name} tools`}
      data-testid="sticker-tools"
    >
      <strong className="small">{name}</strong>
      {!dynamic && (
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => runCommand(store, 'cloneSticker', { id: sticker.uuid })}
        >
          Clone
        </button>
      )}
      <button
        type="button"
        className="button button--small button--secondary"
        onClick={() => runCommand(store, 'requestDeleteSticker', { id: sticker.uuid })}
      >
        Delete
      </button>
      {dynamic && <QrToolbar key={sticker.uuid} sticker={sticker} />}
    </div>
  );
}

/** Spec 000 §8 "Confirmations (Delete and Cancel buttons)": 'Delete Sticker?'. */
export function StickerDeleteConfirmation() {
  const { store } = useEditorContext();
  const confirm = useEditor((s) => (s.confirm?.kind === 'deleteSticker' ? s.confirm : null));
  return (
    <ConfirmDialog
      open={confirm !== null}
      title="Delete Sticker?"
      confirmLabel="Delete"
      onCancel={() => store.getState().closeConfirm()}
      onConfirm={() => {
        if (confirm) runCommand(store, 'deleteSticker', { id: confirm.id });
        store.getState().closeConfirm();
      }}
    >
      <p>The sticker will be removed from the design. Undo brings it back.</p>
    </ConfirmDialog>
  );
}
