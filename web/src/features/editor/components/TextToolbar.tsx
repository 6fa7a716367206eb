import { useEffect, useId, useState } from 'react';
import { MAX_FONT_SIZE, type TextSnippet } from '#shared/design.ts';
import { COMMANDS, runCommand, type CommandName } from '../commands.ts';
import { faceStyleRefusal, type TextAlign } from '../commands/text.ts';
import { isUploadedFont, loadUploadedFonts, noteUploadedFont } from '../commands/uploadedFonts.ts';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { shortcutLabel } from '../keyboard.ts';
import { selectedSnippet } from '../store/selectionSlice.ts';
import { ColorField } from './ColorField.tsx';
import { IS_MAC } from './EditorToolbar.tsx';
import { FontFamilyField, useFontState } from './FontFamilyField.tsx';
import { startPointerGesture } from './gesture.ts';
import { NumberField } from './NumberField.tsx';
import '../text.css';

/**
 * The text toolbar (docs/editor.md "Architecture": "Text toolbar and text snippet panel"), shown
 * while a text snippet is selected: font family, font size with the linked minimum size
 * (docs/editor.md "Commands"), bold, italic, underline (Mod+B/I/U), alignment, fill colour, outline
 * colour and width (0–5), angle (0–360). Every control runs a named command (commands/text.ts).
 *
 * Narrow layouts (docs/editor.md "Architecture", docs/editor.md "Constants" breakpoints 1400 px and
 * 991 px): at 1400 px or less the minimum size, angle and outline move into a collapsible "More
 * text options" panel; at 991 px or less the alignment and text colour join them. The move is CSS
 * only (../text.css), so no control is re-created when the window is resized (an open colour picker
 * stays open).
 */
export function TextToolbar() {
  const snippet = useEditor(selectedSnippet);
  // The team's uploaded fonts, read as the editor opens: the bold/italic rule and the switch to
  // an uploaded font (commands/text.ts) must not wait for a family to be drawn first.
  useEffect(() => void loadUploadedFonts(), []);
  if (!snippet) return null;
  return <SnippetTools key={snippet.id} snippet={snippet} />;
}

function SnippetTools({ snippet }: { snippet: TextSnippet }) {
  const { store } = useEditorContext();
  const [moreOpen, setMoreOpen] = useState(false);
  const font = useFontState(snippet.fontFamily);
  const layoutId = useId();
  const moreId = useId();
  const id = snippet.id;
  return (
    <div
      className={`text-toolbar${moreOpen ? ' text-toolbar--open' : ''}`}
      role="group"
      aria-label="Text tools"
    >
      <FontFamilyField
        value={snippet.fontFamily}
        failed={font.failed}
        onChange={(fontFamily) => runCommand(store, 'setSnippetFontFamily', { id, fontFamily })}
      />
      <SizeField snippet={snippet} />
      <StyleButtons
        snippet={snippet}
        uploadedFont={font.uploaded || isUploadedFont(snippet.fontFamily)}
      />
      <div id={layoutId} className="text-toolbar__part text-toolbar__part--layout">
        <AlignmentGroup value={snippet.textAlign} id={id} />
        <ColorField
          label="Text colour"
          kind="color"
          value={snippet.fill}
          onValue={(fill) => runCommand(store, 'setSnippetFill', { id, fill })}
        />
      </div>
      <button
        type="button"
        className="button button--small button--secondary text-toolbar__more"
        aria-expanded={moreOpen}
        aria-controls={`${layoutId} ${moreId}`}
        onClick={() => setMoreOpen((open) => !open)}
      >
        More text options <span aria-hidden="true">{moreOpen ? '▴' : '▾'}</span>
      </button>
      <div id={moreId} className="text-toolbar__part text-toolbar__part--more">
        <MinimumSize snippet={snippet} />
        <AngleField snippet={snippet} />
        <ColorField
          label="Outline colour"
          kind="outline"
          value={snippet.strokeWidth > 0 ? snippet.stroke : null}
          onValue={(stroke) => runCommand(store, 'setSnippetStroke', { id, stroke })}
        />
        <NumberField
          label="Outline width"
          unit="px"
          min={0}
          max={5}
          step={0.5}
          value={snippet.strokeWidth}
          onValue={(strokeWidth) => runCommand(store, 'setSnippetStrokeWidth', { id, strokeWidth })}
        />
      </div>
    </div>
  );
}

/** Font size (docs/editor.md "Editing rules": at most 80; while linked the minimum follows it, docs/editor.md "Commands"). */
function SizeField({ snippet }: { snippet: TextSnippet }) {
  const { store } = useEditorContext();
  return (
    <NumberField
      label="Font size"
      unit="px"
      min={1}
      max={MAX_FONT_SIZE}
      value={snippet.fontSize}
      onValue={(fontSize) => runCommand(store, 'setSnippetFontSize', { id: snippet.id, fontSize })}
    />
  );
}

/**
 * The minimum (shrink-until) size with its link toggle (docs/editor.md "Commands": "Linked font
 * sizes"): linked, it is half the font size and shown read-only; unlinked, it can be set up to the
 * font size.
 */
function MinimumSize({ snippet }: { snippet: TextSnippet }) {
  const { store } = useEditorContext();
  const id = snippet.id;
  return (
    <div className="text-toolbar__min">
      {snippet.linked ? (
        <div className="field">
          <span className="field__label">Minimum size</span>
          <span className="text-toolbar__value">{snippet.minFontSize} px</span>
        </div>
      ) : (
        <NumberField
          label="Minimum size"
          unit="px"
          min={1}
          max={snippet.fontSize}
          value={snippet.minFontSize}
          onValue={(minFontSize) => runCommand(store, 'setSnippetMinFontSize', { id, minFontSize })}
        />
      )}
      <button
        type="button"
        className="text-toolbar__toggle"
        aria-pressed={snippet.linked}
        title="When linked, the minimum size is half the font size"
        onClick={() => runCommand(store, 'setSnippetLinked', { id, linked: !snippet.linked })}
      >
        Link minimum size
      </button>
    </div>
  );
}

/** A command's tooltip: its label and shortcut ("Bold (Ctrl+B)"). */
function titleOf(name: CommandName): string {
  const first = COMMANDS[name].shortcuts[0];
  const label = COMMANDS[name].label;
  return first ? `${label} (${shortcutLabel(first.keys, IS_MAC)})` : label;
}

/**
 * Bold, italic and underline as toggle buttons (docs/editor.md "Architecture": "style
 * (bold/italic), underline"). An uploaded font has no bold or italic faces (docs/editor.md "Editing
 * rules"): the commands refuse to switch those on (commands/text.ts), for the buttons and the Mod+B
 * / Mod+I shortcuts alike; the buttons show it beforehand (`aria-disabled`, the message in their
 * title), and pressing one shows the spec's message for 4 s (commands.ts `runCommand`).
 */
function StyleButtons({ snippet, uploadedFont }: { snippet: TextSnippet; uploadedFont: boolean }) {
  const { store } = useEditorContext();
  // Tell the commands what the font loader found, so the shortcuts refuse as the buttons do.
  useEffect(() => {
    if (uploadedFont) noteUploadedFont(snippet.fontFamily);
  }, [snippet.fontFamily, uploadedFont]);
  const buttons = [
    { name: 'toggleBold', on: snippet.fontWeight === 'bold', mark: 'B', style: 'bold' },
    { name: 'toggleItalic', on: snippet.fontStyle === 'italic', mark: 'I', style: 'italic' },
    { name: 'toggleUnderline', on: snippet.underline, mark: 'U', style: null },
  ] as const;
  return (
    <div className="text-toolbar__buttons" role="group" aria-label="Style">
      {buttons.map((b) => {
        const refused = b.style && faceStyleRefusal(snippet, b.style, uploadedFont);
        return (
          <button
            key={b.name}
            type="button"
            className={`text-toolbar__toggle text-toolbar__toggle--${b.style ?? 'underline'}`}
            aria-pressed={b.on}
            aria-disabled={refused ? true : undefined}
            aria-label={COMMANDS[b.name].label}
            title={refused || titleOf(b.name)}
            onClick={() => runCommand(store, b.name)}
          >
            <span aria-hidden="true">{b.mark}</span>
          </button>
        );
      })}
    </div>
  );
}

const ALIGNMENTS: { value: TextAlign; label: string; mark: string }[] = [
  { value: 'left', label: 'Left', mark: '⇤' },
  { value: 'center', label: 'Center', mark: '↔' },
  { value: 'right', label: 'Right', mark: '⇥' },
];

/**
 * Alignment as a radio group (docs/editor.md "Architecture": "alignment (left, center, right)"):
 * one tab stop, the arrow keys move the choice, as native radios do.
 */
function AlignmentGroup({ value, id }: { value: TextAlign; id: string }) {
  const { store } = useEditorContext();
  const name = useId();
  return (
    <fieldset className="text-toolbar__align">
      <legend className="field__label">Alignment</legend>
      {ALIGNMENTS.map((a) => (
        <label key={a.value} className="text-toolbar__radio" title={a.label}>
          <input
            type="radio"
            name={name}
            value={a.value}
            checked={value === a.value}
            onChange={() => runCommand(store, 'setSnippetTextAlign', { id, textAlign: a.value })}
          />
          <span aria-hidden="true">{a.mark}</span>
          <span className="visually-hidden">{a.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The angle, 0–360 degrees (docs/editor.md "Editing rules"): a slider (a drag is one undo step)
 * beside a number field.
 */
function AngleField({ snippet }: { snippet: TextSnippet }) {
  const { store } = useEditorContext();
  const sliderId = useId();
  const id = snippet.id;
  const set = (angle: number) => runCommand(store, 'setSnippetAngle', { id, angle });
  return (
    <div className="text-toolbar__angle">
      <div className="field">
        <label htmlFor={sliderId} className="field__label">
          Angle slider
        </label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={360}
          step={1}
          value={snippet.angle}
          onPointerDown={() => startPointerGesture(store)}
          onChange={(event) => set(event.target.valueAsNumber)}
        />
      </div>
      <NumberField label="Angle" unit="°" min={0} max={360} value={snippet.angle} onValue={set} />
    </div>
  );
}
