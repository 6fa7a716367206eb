/**
 * A hex colour of `#` and 2, 3 or 6 hex digits (docs/editor.md "Editing rules": "Hex colour must be
 * 2, 3 or 6 characters") as `#rrggbb`, lower case, which every reader of a stored colour
 * understands (the QR renderer, browsers, the editor's colour input): `#rgb` doubles each digit as
 * CSS does, and `#gg` is the grey `#gggggg` (docs/adr/0031-editor-text-tools.md "Two-digit hex
 * colours"). Anything else is null.
 */
export function longHexColour(colour: string): string | null {
  const hex = /^#([0-9a-f]{2}|[0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour)?.[1]?.toLowerCase();
  if (hex === undefined) return null;
  if (hex.length === 2) return `#${hex}${hex}${hex}`;
  if (hex.length === 3) return `#${[...hex].map((d) => d + d).join('')}`;
  return `#${hex}`;
}
