/**
 * Size units of the image toolbar (docs/editor.md "Constants": "Units: px, in, mm, cm. Factors per
 * pixel: inch 0.0104166667, mm 0.2645833333, cm 0.026458333. Size step 10 in px, 1 in other units";
 * docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and
 * restore" `size_option`). Storage stays in canvas px; these conversions only change what the
 * counters show and how far a step moves. Pure: no DOM.
 */

/** The units of the unit select, in its order. */
export const SIZE_UNITS = ['px', 'in', 'mm', 'cm'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];

/** How many of a unit one canvas px is (docs/editor.md "Constants"). */
export const UNIT_PER_PX: Record<SizeUnit, number> = {
  px: 1,
  in: 0.0104166667,
  mm: 0.2645833333,
  cm: 0.026458333,
};

/** One counter step in each unit (docs/editor.md "Constants": 10 in px, 1 in the others). */
export const UNIT_STEP: Record<SizeUnit, number> = { px: 10, in: 1, mm: 1, cm: 1 };

/** Decimals a counter shows in each unit (px are whole; in and cm to 2, mm to 1). */
const DECIMALS: Record<SizeUnit, number> = { px: 0, in: 2, mm: 1, cm: 2 };

/** Rounds to the unit's shown decimals. */
export function roundInUnit(value: number, unit: SizeUnit): number {
  const f = 10 ** DECIMALS[unit];
  return Math.round(value * f) / f;
}

/**
 * A length in canvas px shown in `unit`, rounded to the unit's decimals.
 * @param px canvas px.
 */
export const pxToUnit = (px: number, unit: SizeUnit): number =>
  roundInUnit(px * UNIT_PER_PX[unit], unit);

/**
 * A length typed in `unit` as whole canvas px (the document stores whole px).
 * @param value the length in `unit`.
 */
export const unitToPx = (value: number, unit: SizeUnit): number =>
  Math.round(value / UNIT_PER_PX[unit]);

/**
 * The px length after one counter step up (`direction` 1) or down (-1) in `unit`: the shown
 * value moves by the unit's step (docs/editor.md "Constants") and is converted back to whole px.
 */
export function stepPx(px: number, unit: SizeUnit, direction: 1 | -1): number {
  return unitToPx(pxToUnit(px, unit) + direction * UNIT_STEP[unit], unit);
}

/** Whether a value is one of the units (for a value read from a select). */
export const isSizeUnit = (value: string): value is SizeUnit =>
  (SIZE_UNITS as readonly string[]).includes(value);
