/**
 * The selection controls' size (docs/editor.md "Constants" and "Deliberate deviations"): spec
 * 000 §9's control icon of 30 px is what a finger gets on a touch screen; to a mouse a corner
 * handle is 16 px, since the icon at its 0.8 scale (24 px) crowds a one-line text snippet with
 * six overlapping circles. No fabric here: the docs test reads these constants.
 */

/** A corner handle's hit size to a finger, px (the spec's control icon). */
export const CONTROL_TOUCH_PX = 30;
/** A corner handle's drawn and hit size to a mouse, px. */
export const CONTROL_CORNER_PX = 16;
