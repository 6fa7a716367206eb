/**
 * The selected sticker's toolbar (docs/editor.md "Architecture": "QR code / screenshot toolbar:
 * fallback field per sticker, QR colour, margin, transparency, and a device switch") and the
 * 'Delete Sticker?' confirmation (docs/editor.md "Messages"). Shown under the image toolbar while a
 * sticker is selected. Clone and Delete are not here: they are the selection overlay's on the
 * canvas (docs/editor.md "Commands", SelectionOverlay.tsx), so each action has one place.
 */
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { runCommand } from '../commands.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { selectedSticker } from '../store/selectionSlice.ts';
import { CountdownPanel } from './CountdownPanel.tsx';
import { PollPanel } from './PollPanel.tsx';
import { QrToolbar } from './QrToolbar.tsx';
import { StickerColourField } from './StickerColourField.tsx';
import { WeatherPanel } from './WeatherPanel.tsx';
import { WebCropPanel } from './WebCropPanel.tsx';

/** What a sticker is called in the tools' label. */
const KIND: Record<string, string> = {
  qrCode: 'QR code',
  gravatar: 'Gravatar',
  hostedImage: 'Hosted image',
  screenShot: 'Screenshot',
  countdown: 'Countdown timer',
  poll: 'Poll',
  weather: 'Weather',
};

/**
 * The selected sticker's toolbar, or nothing when no sticker is selected: a dynamic sticker's
 * fallback and QR / screenshot settings (QrToolbar.tsx), a countdown timer's properties
 * (CountdownPanel.tsx), a poll's (PollPanel.tsx), a weather sticker's (WeatherPanel.tsx), a
 * screenshot's live crop (WebCropPanel.tsx); for a regular sticker, its colour
 * (StickerColourField.tsx) and where its other controls are.
 */
export function StickerToolbar() {
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
      {sticker.dynamicStickerType === 'countdown' ? (
        <CountdownPanel key={sticker.uuid} sticker={sticker} />
      ) : sticker.dynamicStickerType === 'poll' ? (
        <PollPanel key={sticker.uuid} sticker={sticker} />
      ) : sticker.dynamicStickerType === 'weather' ? (
        <WeatherPanel key={sticker.uuid} sticker={sticker} />
      ) : dynamic ? (
        <>
          <QrToolbar key={sticker.uuid} sticker={sticker} />
          {sticker.dynamicStickerType === 'screenShot' && (
            <WebCropPanel key={`crop-${sticker.uuid}`} sticker={sticker} />
          )}
        </>
      ) : (
        <>
          <StickerColourField key={sticker.uuid} sticker={sticker} />
          <span className="small muted">
            Drag to move; corner handles scale and rotate. Clone and Delete float next to it on the
            canvas.
          </span>
        </>
      )}
    </div>
  );
}

/** docs/editor.md "Messages": "Confirmations (Delete and Cancel buttons)": 'Delete Sticker?'. */
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
