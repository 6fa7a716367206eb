/**
 * The panel behind a poll or a weather sticker (docs/editor.md "Poll", "Weather"): **Panel**
 * (off: `transparent`, no panel; on again: the default white at 90 %), its **Panel colour** (the
 * picker's `#rrggbb`, the opacity kept) and **Panel opacity** (0–100 %, the colour kept), stored
 * as one `panel_fill` (document/panelColour.ts).
 */
import { NO_PANEL, panelColourParts, panelFill } from '../document/panelColour.ts';
import { ColorField } from './ColorField.tsx';
import { NumberField } from './NumberField.tsx';

/** The panel's on/off switch, colour and opacity; `onValue` gets the new `panel_fill`. */
export function PanelColourField({
  value,
  defaultValue,
  onValue,
}: {
  /** The stored `panel_fill`: `transparent` or a hex colour, `#rrggbbaa` with opacity. */
  value: string;
  /** What switching the panel on again sets (the schema's default). */
  defaultValue: string;
  onValue: (fill: string) => void;
}) {
  const shown = value !== NO_PANEL;
  const parts = panelColourParts(shown ? value : defaultValue);
  return (
    // One row: the switch beside the colour and opacity it governs.
    <div className="panel-colour">
      <label className="editor-sticker-tools__check small">
        <input
          type="checkbox"
          checked={shown}
          onChange={(e) => onValue(e.target.checked ? defaultValue : NO_PANEL)}
        />{' '}
        Panel
      </label>
      {shown && (
        <>
          <ColorField
            label="Panel colour"
            kind="color"
            value={parts.colour}
            onValue={(colour) => onValue(panelFill({ ...parts, colour }))}
          />
          <NumberField
            label="Panel opacity"
            unit="%"
            value={parts.opacity}
            min={0}
            max={100}
            onValue={(opacity) => onValue(panelFill({ ...parts, opacity }))}
          />
        </>
      )}
    </div>
  );
}
