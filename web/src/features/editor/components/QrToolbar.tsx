/**
 * The QR code / screenshot toolbar (docs/editor.md "Architecture": "QR code / screenshot toolbar:
 * fallback field per sticker, QR colour, margin, transparency, and a device switch (Mobile or
 * desktop) for screenshots"; docs/editor.md "Editing rules" fallback validations; docs/editor.md
 * "Constants" debounces). Every change is a command (commands/stickers.ts); the fields show what
 * waits for its debounce.
 */
import { useId, useRef, useState } from 'react';
import type { Sticker } from '#shared/design.ts';
import { runCommand } from '../commands.ts';
import { FallbackError } from '../commands/stickers.ts';
import {
  fallbackProblem,
  FALLBACK_MESSAGES,
  QR_COLOUR_DEBOUNCE_MS,
  QR_MARGIN,
  QR_MARGIN_DEBOUNCE_MS,
} from '../document/stickers.ts';
import { useEditorContext } from '../EditorContext.tsx';
import { historyShortcutFor } from '../keyboard.ts';
import { IS_MAC } from './EditorToolbar.tsx';
import { errorIdOf, FieldError } from './FieldError.tsx';
import { useDebouncedCommit } from './useDebouncedCommit.ts';
import { longHexColour } from '#shared/colour.ts';

/** How long a hosted image may take to load before it counts as not found, ms. */
const IMAGE_CHECK_MS = 8000;

/** Whether the browser can load an image from `url` (docs/editor.md "Editing rules": "must load"). */
function imageLoads(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const image = new Image();
    const timer = setTimeout(() => resolve(false), IMAGE_CHECK_MS);
    image.onload = () => {
      clearTimeout(timer);
      resolve(true);
    };
    image.onerror = () => {
      clearTimeout(timer);
      resolve(false);
    };
    image.src = url;
  });
}

/** What the fallback field of each dynamic sticker asks for. */
const FALLBACK_LABEL: Record<NonNullable<Sticker['dynamicStickerType']>, string> = {
  qrCode: 'QR code value',
  gravatar: 'Fallback e-mail',
  hostedImage: 'Fallback image URL',
  screenShot: 'Fallback page URL',
  countdown: 'Fallback start time',
  poll: 'Fallback value',
  weather: 'Fallback place',
};

/** `#gg` and `#rgb` as `#rrggbb` (the colour input reads only the long form). */
const longHex = (colour: string) => longHexColour(colour) ?? colour.toLowerCase();

/**
 * A dynamic sticker's fallback value (docs/editor.md "Editing rules"): checked as typed with the
 * spec's messages; a hosted image must also load. A value that breaks a rule stays in the field
 * with its message and is not saved.
 */
function FallbackField({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  const id = useId();
  const type = sticker.dynamicStickerType ?? 'qrCode';
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  /** The newest typed value: a slow image check of an older one is ignored. */
  const newest = useRef<string | null>(null);
  const commit = (value: string) => {
    try {
      runCommand(store, 'setStickerFallback', { id: sticker.uuid, value });
      setDraft(null);
      setError(null);
    } catch (e) {
      if (!(e instanceof FallbackError)) throw e;
      setError(e.message);
    }
  };
  const change = (value: string) => {
    newest.current = value;
    setDraft(value);
    const problem = fallbackProblem(type, value);
    if (problem) return setError(problem);
    setError(null);
    if (type !== 'hostedImage' || value === '') return commit(value);
    setChecking(true);
    void imageLoads(value).then((ok) => {
      if (newest.current !== value) return;
      setChecking(false);
      if (ok) commit(value);
      else setError(FALLBACK_MESSAGES.imageType);
    });
  };
  return (
    <div className="editor-sticker-tools__field">
      <label htmlFor={id} className="small">
        {FALLBACK_LABEL[type]}
      </label>
      <input
        id={id}
        className="input editor-sticker-tools__input"
        value={draft ?? sticker.dynamicStickerUrl}
        maxLength={300}
        placeholder={
          type === 'qrCode'
            ? 'Default: this app’s address'
            : type === 'countdown'
              ? 'e.g. 2030-01-01T09:00:00Z'
              : ''
        }
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorIdOf(id) : undefined}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          // Undo and redo are the editor's (one history): the field then shows the document.
          const history = historyShortcutFor(e, IS_MAC);
          if (!history) return;
          e.preventDefault();
          newest.current = null;
          setDraft(null);
          setError(null);
          setChecking(false);
          runCommand(store, history);
        }}
      />
      {checking && <span className="muted small">Checking the image…</span>}
      <FieldError fieldId={id} message={error} />
    </div>
  );
}

/** The QR code's colour (300 ms), margin 0–20 and transparency (200 ms), docs/editor.md "Editing rules", docs/editor.md "Constants". */
function QrFields({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  const id = useId();
  const [colour, setColour] = useDebouncedCommit<string>(
    (value) => runCommand(store, 'setQrColour', { id: sticker.uuid, colour: value }),
    QR_COLOUR_DEBOUNCE_MS,
  );
  const [margin, setMargin] = useDebouncedCommit<number>(
    (value) => runCommand(store, 'setQrMargin', { id: sticker.uuid, margin: value }),
    QR_MARGIN_DEBOUNCE_MS,
  );
  const [transparent, setTransparent] = useDebouncedCommit<boolean>(
    (value) => runCommand(store, 'setQrTransparent', { id: sticker.uuid, transparent: value }),
    QR_MARGIN_DEBOUNCE_MS,
  );
  return (
    <>
      <div className="editor-sticker-tools__field">
        <label htmlFor={`${id}-colour`} className="small">
          QR colour
        </label>
        <input
          id={`${id}-colour`}
          type="color"
          className="editor-sticker-tools__colour"
          value={longHex(colour ?? sticker.qrCodeColor)}
          onChange={(e) => setColour(e.target.value)}
        />
      </div>
      <div className="editor-sticker-tools__field">
        <label htmlFor={`${id}-margin`} className="small">
          Margin
        </label>
        <input
          id={`${id}-margin`}
          type="number"
          className="input editor-sticker-tools__number"
          min={QR_MARGIN.min}
          max={QR_MARGIN.max}
          step={1}
          value={margin ?? sticker.marginSize}
          onChange={(e) => {
            const value = e.target.valueAsNumber;
            if (Number.isFinite(value)) setMargin(Math.min(QR_MARGIN.max, Math.max(0, value)));
          }}
        />
      </div>
      <label className="editor-sticker-tools__check small">
        <input
          type="checkbox"
          checked={transparent ?? sticker.isTransparent}
          onChange={(e) => setTransparent(e.target.checked)}
        />{' '}
        Transparent background
      </label>
    </>
  );
}

/** The screenshot's device (docs/editor.md "Architecture": "a device switch (Mobile or desktop)"). */
function DeviceSwitch({ sticker }: { sticker: Sticker }) {
  const { store } = useEditorContext();
  return (
    <fieldset className="editor-sticker-tools__device">
      <legend className="small">Device</legend>
      {(
        [
          ['Desktop', false],
          ['Mobile', true],
        ] as const
      ).map(([label, isMobile]) => (
        <label key={label} className="small">
          <input
            type="radio"
            name={`device-${sticker.uuid}`}
            checked={sticker.isMobile === isMobile}
            onChange={() =>
              runCommand(store, 'setScreenshotDevice', { id: sticker.uuid, isMobile })
            }
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The toolbar of a selected dynamic sticker: its read-only parameter name (docs/editor.md "Editing
 * rules": "The custom-name field on a dynamic sticker is read-only"), its fallback, and the QR or
 * screenshot options.
 */
export function QrToolbar({ sticker }: { sticker: Sticker }) {
  const id = useId();
  return (
    <>
      <div className="editor-sticker-tools__field">
        <label htmlFor={id} className="small">
          Parameter
        </label>
        <input
          id={id}
          className="input editor-sticker-tools__input"
          value={sticker.dynamicStickerParamName ?? ''}
          readOnly
        />
      </div>
      <FallbackField sticker={sticker} />
      {sticker.dynamicStickerType === 'qrCode' && <QrFields sticker={sticker} />}
      {sticker.dynamicStickerType === 'screenShot' && <DeviceSwitch sticker={sticker} />}
    </>
  );
}
