import { useEffect, useId, useRef, useState } from 'react';
import { HexColorPicker } from 'react-colorful';
import { useAppStore } from '../../../state/store.ts';
import { useEditorContext } from '../EditorContext.tsx';
import { FieldError, errorIdOf } from './FieldError.tsx';
import { startPointerGesture } from './gesture.ts';
import {
  hexColour,
  parseHex,
  readColourHistory,
  rememberColour,
  type ColourKind,
} from '../document/textStyle.ts';

/** What a hex colour may be (docs/editor.md "Editing rules": "Hex colour must be 2, 3 or 6 characters"). */
const HEX_HINT = 'A hex colour has 2, 3 or 6 characters, like #1f2937.';

/** The browser's localStorage, or null where it cannot be used (private mode, tests). */
function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The signed-in user's recent colours of one kind
 * (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore": "recent and current fill colours for text and outline (max 5 each; kept per user in
 * local storage under the user id, fields color and outline)"), and `remember` to record a used
 * colour.
 */
function useRecentColours(kind: ColourKind): [string[], (colour: string) => void] {
  const userId = useAppStore((s) => s.user?.id ?? null);
  const [recent, setRecent] = useState<string[]>(() => {
    const storage = browserStorage();
    return storage && userId ? readColourHistory(storage, userId)[kind] : [];
  });
  const remember = (colour: string) => {
    const storage = browserStorage();
    if (!storage || !userId) return;
    setRecent(rememberColour(storage, userId, kind, colour)[kind]);
  };
  return [recent, remember];
}

/**
 * A colour control of the text toolbar (docs/editor.md "Architecture": "fill colour", "outline
 * colour"): a swatch button opens a popover with a picker (react-colorful), a hex field
 * (docs/editor.md "Editing rules": 2, 3 or 6 characters) and the user's 5 recent colours of this
 * kind. Dragging in the picker is one undo step (a gesture, store history); the colour joins the
 * recent colours when the popover closes. Escape or a click outside closes it and gives focus back
 * to the swatch.
 */
export function ColorField({
  label,
  kind,
  value,
  onValue,
}: {
  label: string;
  kind: ColourKind;
  /** The stored colour (`black`, `#fff`, `#1f2937`), or null for none. */
  value: string | null;
  onValue: (hex: string) => void;
}) {
  const { store } = useEditorContext();
  const [open, setOpen] = useState(false);
  const [recent, remember] = useRecentColours(kind);
  const [typed, setTyped] = useState<string | null>(null);
  const popoverId = useId();
  const hexId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  /** The colour at opening: closing with another one records it in the recent colours. */
  const opened = useRef<string | null>(null);
  const hex = hexColour(value);
  const invalid = typed !== null && typed.trim() !== '' && parseHex(typed) === null;

  const close = (refocus: boolean) => {
    setOpen(false);
    setTyped(null);
    if (opened.current !== null && opened.current !== hexColour(value)) remember(hexColour(value));
    opened.current = null;
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  });

  return (
    // role="presentation": the handler only catches Escape bubbling up from the button and the
    // popover's controls; the wrapper itself is not interactive.
    <div
      className="text-colour"
      ref={root}
      role="presentation"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          event.preventDefault();
          close(true);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="text-colour__button"
        aria-expanded={open}
        aria-controls={popoverId}
        aria-label={`${label}: ${value === null ? 'none' : hex}`}
        onClick={() => {
          if (open) return close(true);
          opened.current = hex;
          setOpen(true);
        }}
      >
        <span
          className="text-colour__swatch"
          style={{ background: value === null ? 'transparent' : hex }}
          aria-hidden="true"
        />
        <span>{label}</span>
      </button>
      {open && (
        <div id={popoverId} className="text-colour__popover card" role="group" aria-label={label}>
          <div onPointerDown={() => startPointerGesture(store)}>
            <HexColorPicker color={hex} onChange={onValue} />
          </div>
          <label htmlFor={hexId} className="field__label">
            Hex
          </label>
          <input
            id={hexId}
            className="input text-colour__hex"
            spellCheck={false}
            autoComplete="off"
            maxLength={7}
            value={typed ?? hex}
            aria-invalid={invalid}
            aria-describedby={invalid ? errorIdOf(hexId) : undefined}
            onChange={(event) => {
              setTyped(event.target.value);
              const parsed = parseHex(event.target.value);
              if (parsed) onValue(parsed);
            }}
            onBlur={() => setTyped(null)}
          />
          <FieldError fieldId={hexId} message={invalid ? HEX_HINT : null} />
          {recent.length > 0 && (
            <div className="text-colour__recent" role="group" aria-label="Recent colours">
              {recent.map((colour) => (
                <button
                  key={colour}
                  type="button"
                  className="text-colour__chip"
                  style={{ background: colour }}
                  aria-label={`Use ${colour}`}
                  aria-pressed={colour === hex}
                  onClick={() => onValue(colour)}
                />
              ))}
            </div>
          )}
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => close(true)}
          >
            Done
          </button>
        </div>
      )}
    </div>
  );
}
