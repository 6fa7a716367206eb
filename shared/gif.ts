/**
 * Animated GIF limits shared by the editor's playback and the render (docs/adr/0059-gif-playback.md
 * "GIF playback"): the frames a design can save and the sizes the render decodes.
 */

/** A GIF's frames past this are not played nor saved; frame indexes run 0..MAX_GIF_FRAMES - 1. */
export const MAX_GIF_FRAMES = 500;

/** Largest frame the render decodes, px (width × height), as for any upload. */
export const MAX_GIF_FRAME_PIXELS = 40_000_000;

/**
 * Decoded pixels the editor keeps of one GIF, bytes of RGBA (about 25 frames of 1000 x 1000);
 * an animated sticker upload keeps no more frames than fit in it.
 */
export const MAX_GIF_DECODED_BYTES = 100 * 1024 * 1024;

/** True for GIF bytes: they start with `GIF8` (`GIF87a` / `GIF89a`). */
export const isGif = (bytes: Uint8Array): boolean =>
  bytes.length >= 6 &&
  bytes[0] === 0x47 &&
  bytes[1] === 0x49 &&
  bytes[2] === 0x46 &&
  bytes[3] === 0x38;
