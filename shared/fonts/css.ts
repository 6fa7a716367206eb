/** CSS text helpers for font families, shared by the catalogue and the face registry. */

/** A CSS string literal for a family name in `font-family` or a FontFace (quotes dropped). */
export const cssFamily = (family: string): string => `"${family.replace(/["\\\n]/g, '')}"`;
