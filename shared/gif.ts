/**
 * Animated GIF limits shared by the editor's playback and the render (docs/decisions.md "GIF
 * playback"): the frames a design can save and the sizes the render decodes.
 */

/** A GIF's frames past this are not played nor saved; frame indexes run 0..MAX_GIF_FRAMES - 1. */
export const MAX_GIF_FRAMES = 500;

/** Largest frame the render decodes, px (width × height), as for any upload. */
export const MAX_GIF_FRAME_PIXELS = 40_000_000;
