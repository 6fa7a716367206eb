/**
 * The pure rules of the designs feature (docs/adr/0019-design-api-shapes.md "Design API shapes"):
 * title rules (docs/editor.md "Editing rules"), the name sort key, the clone's parameter names
 * (docs/editor.md "Editing rules": "_copy plus a number") and dynamic sticker fallbacks
 * (docs/editor.md "Editing rules" messages).
 */
import { describe, expect, it } from 'vitest';
import { designListKey, designTitleSortKey } from '#lib/db/entities-designs.ts';
import { cloneDocument } from '#functions/designs/create.ts';
import { dynamicStickerParamName, fallbackProblem } from '#functions/designs/stickers.ts';
import { copyTitle, newTitle, titleChange } from '#functions/designs/titles.ts';
import { DesignDocumentSchema, type DesignDocumentInput } from '#shared/design.ts';

const TOO_LONG = 'The title may not be greater than 255 characters';

describe('title rules (spec 000 §5)', () => {
  it('saves a changed title trimmed, and nothing for blank or unchanged ones', () => {
    expect(titleChange('Old', '  New  ')).toBe('New');
    expect(titleChange('Old', '   ')).toBeUndefined();
    expect(titleChange('Old', '')).toBeUndefined();
    expect(titleChange('Old', undefined)).toBeUndefined();
    expect(titleChange('Old', ' Old ')).toBeUndefined();
    expect(titleChange('Old', 'a'.repeat(255))).toHaveLength(255);
  });

  it('refuses 256 characters with the spec message', () => {
    expect(() => titleChange('Old', 'a'.repeat(256))).toThrow(TOO_LONG);
    expect(() => newTitle('b'.repeat(256), 'Photo')).toThrow(TOO_LONG);
    expect(newTitle(' ', 'Photo')).toBe('Photo');
  });

  it("titles a copy 'Copy of - …' within 255 characters", () => {
    expect(copyTitle('Sale')).toBe('Copy of - Sale');
    expect(copyTitle('c'.repeat(255))).toHaveLength(255);
  });
});

describe('dashboard list keys', () => {
  it('orders names as a reader does: case and accents folded, shorter first', () => {
    const titles = ['zebra', 'abc def', 'Éclair', 'ABC', 'apple', 'eclairs'];
    const sorted = [...titles].sort((a, b) =>
      designTitleSortKey(a) < designTitleSortKey(b) ? -1 : 1,
    );
    expect(sorted).toEqual(['ABC', 'abc def', 'apple', 'Éclair', 'eclairs', 'zebra']);
  });

  it('puts templates in one list across teams', () => {
    expect(designListKey({ teamId: 't1', status: 'active', isTemplate: false })).toBe(
      'team:t1:active',
    );
    expect(designListKey({ teamId: 't1', status: 'archived', isTemplate: true })).toBe(
      'templates:archived',
    );
    expect(() => designListKey({ status: 'active' })).toThrow();
  });
});

const doc = (input: Partial<DesignDocumentInput>) =>
  DesignDocumentSchema.parse({ image_id: 'i', base_image_key: 'k', ...input });

const snippet = (id: string, text: string, names: string[]) => ({
  id,
  text,
  left: 0,
  top: 0,
  width: 100,
  parameters: names.map((n) => ({ id: `${id}-${n}`, param_name: n })),
});

describe('cloneDocument', () => {
  it('renames every parameter with _copy and a number, placeholders included', () => {
    const original = doc({
      text_snippets: [
        snippet('a', 'Hi {{first_name}} from {{ company }}', ['first_name', 'company']),
        snippet('b', '{{first_name_copy1}}!', ['first_name_copy1']),
      ],
    });
    const copy = cloneDocument(original);
    const names = copy.text_snippets.flatMap((s) => s.parameters.map((p) => p.param_name));
    expect(names).toEqual(['first_name_copy2', 'company_copy1', 'first_name_copy3']);
    expect(copy.text_snippets[0]!.text).toBe('Hi {{first_name_copy2}} from {{company_copy1}}');
    expect(copy.text_snippets[1]!.text).toBe('{{first_name_copy3}}!');
    expect(new Set(names).size).toBe(names.length);
    // The original is untouched.
    expect(original.text_snippets[0]!.parameters[0]!.param_name).toBe('first_name');
  });
});

describe('dynamic stickers (spec 000 §5)', () => {
  it('checks fallbacks with the spec messages', () => {
    expect(fallbackProblem('gravatar', 'nope')).toBe('Invalid email');
    expect(fallbackProblem('gravatar', 'a@b.co')).toBeNull();
    expect(fallbackProblem('hostedImage', 'javascript:alert(1)')).toBe('Invalid URL');
    expect(fallbackProblem('hostedImage', 'https://x.test/a.webp')).toBe(
      'Image not found. We support jpg, jpeg, png, gif and svg',
    );
    expect(fallbackProblem('hostedImage', 'https://x.test/a.JPG?size=2')).toBeNull();
    expect(fallbackProblem('screenShot', 'x.test')).toBe('Invalid URL');
    expect(fallbackProblem('qrCode', 'q'.repeat(256))).toBe(
      'Value may not be greater than 255 character!',
    );
    expect(fallbackProblem('qrCode', 'anything')).toBeNull();
  });

  it('names a new dynamic sticker by its type prefix and the first free counter', () => {
    const d = doc({
      text_snippets: [snippet('a', '{{qrCode1}}', ['qrCode1'])],
      graphics_data: [
        {
          uuid: 'g',
          left: 0,
          top: 0,
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'gravatar',
          dynamicStickerParamName: 'Gravatar1',
        },
      ],
    });
    expect(dynamicStickerParamName(d, 'qrCode')).toBe('qrCode2');
    expect(dynamicStickerParamName(d, 'gravatar')).toBe('Gravatar2');
    expect(dynamicStickerParamName(d, 'hostedImage')).toBe('hostedIcon1');
  });
});
