/**
 * The hex colours a QR code accepts (docs/editor.md "Editing rules": "Hex colour must be 2, 3 or 6
 * characters"), stored as `#rrggbb` (shared/colour.ts, shared/contract/designs.ts,
 * docs/adr/0031-editor-text-tools.md "Two-digit hex colours").
 */
import { describe, expect, it } from 'vitest';
import { qrColour } from '#functions/render/stickers.ts';
import { longHexColour } from '#shared/colour.ts';
import { HexColourSchema, QrCodeColorBody, STICKER_MESSAGES } from '#shared/contract/designs.ts';

describe('hex colours of QR codes', () => {
  it('reads 2, 3 and 6 hex digits as #rrggbb', () => {
    expect(longHexColour('#80')).toBe('#808080');
    expect(longHexColour('#fA')).toBe('#fafafa');
    expect(longHexColour('#f0a')).toBe('#ff00aa');
    expect(longHexColour('#11AA22')).toBe('#11aa22');
  });

  it('refuses other lengths, missing #, and non-hex digits', () => {
    for (const colour of [
      '#',
      '#1',
      '#1234',
      '#12345',
      '#1234567',
      '808080',
      'red',
      '#gg',
      ' #80',
    ]) {
      expect(longHexColour(colour), colour).toBeNull();
      const parsed = HexColourSchema.safeParse(colour);
      expect(parsed.success, colour).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(STICKER_MESSAGES.colour);
    }
  });

  it('the qrCodeColor call takes a 2-digit colour and stores it long', () => {
    const body = QrCodeColorBody.parse({ stickerId: 'qr-1', qrCodeColor: '#2b', version: 3 });
    expect(body.qrCodeColor).toBe('#2b2b2b');
    expect(body.stickerId).toBe('qr-1');
  });

  it('draws a stored colour in the render as the editor reads it', () => {
    // A design saved whole keeps the colour as typed: the render reads `#80` as the grey too.
    expect(qrColour('#80')).toBe('#808080');
    expect(qrColour('F0A')).toBe('#ff00aa');
    expect(qrColour('#11AA22')).toBe('#11aa22');
    expect(qrColour('red')).toBe('#111111');
    expect(qrColour('#1234')).toBe('#111111');
  });
});
