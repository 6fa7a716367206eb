/**
 * The panel colour of the stickers drawn from settings (a poll's and a weather sticker's
 * `panel_fill`; docs/editor.md "Poll", "Weather"): `transparent` (no panel) or a hex colour with
 * an optional alpha, `#rrggbbaa` (the default, `#ffffffe6`, is white at 90 %). The colour picker
 * gives `#rrggbb`, so the panel keeps its opacity apart and joins the two. Pure.
 */
import { hexColour } from './textStyle.ts';

/** The panel colour meaning "no panel". */
export const NO_PANEL = 'transparent';

/** A panel colour split for the controls: its colour `#rrggbb` and its opacity, 0–100 %. */
export interface PanelColourParts {
  colour: string;
  opacity: number;
}

/** `#rrggbbaa` → the colour and the alpha as a whole percentage; any other colour is opaque. */
export function panelColourParts(fill: string): PanelColourParts {
  const long = /^#([0-9a-f]{6})([0-9a-f]{2})$/i.exec(fill.trim());
  if (long) {
    return {
      colour: `#${long[1]!.toLowerCase()}`,
      opacity: Math.round((parseInt(long[2]!, 16) / 255) * 100),
    };
  }
  return { colour: hexColour(fill), opacity: 100 };
}

/**
 * The stored panel colour of `parts`: `#rrggbb` when opaque, else `#rrggbbaa` (the opacity
 * clamped to 0–100 % and rounded to the nearest of 256 steps), so a colour picked keeps the
 * panel's opacity and an opacity set keeps its colour.
 */
export function panelFill({ colour, opacity }: PanelColourParts): string {
  const hex = hexColour(colour);
  const percent = Number.isFinite(opacity) ? Math.min(100, Math.max(0, opacity)) : 100;
  if (percent >= 100) return hex;
  const alpha = Math.round((percent / 100) * 255);
  return `${hex}${alpha.toString(16).padStart(2, '0')}`;
}
