/**
 * Design documents as DynamoDB can store them (functions/designs/store.ts `storableDocument`,
 * docs/adr/0019-design-api-shapes.md "Design API shapes"): a number too close to zero for DynamoDB
 * is stored as 0, one beyond its range is a 422 naming the field, and everything else is kept as it
 * was.
 */
import { describe, expect, it } from 'vitest';
import { storableDocument } from '#functions/designs/store.ts';
import { AppError } from '#lib/errors.ts';

describe('storableDocument', () => {
  it('stores a number smaller than DynamoDB can hold as 0, keeping the rest', () => {
    const document = {
      text_snippets: [{ left: 12.5, top: -8.149567114893453e-248, text: 'Hi' }],
      enhance: { Blur: 1e-131 },
      image_angle: 0,
    };
    expect(storableDocument(document)).toEqual({
      text_snippets: [{ left: 12.5, top: 0, text: 'Hi' }],
      enhance: { Blur: 0 },
      image_angle: 0,
    });
    expect(document.text_snippets[0]!.top).toBe(-8.149567114893453e-248);
  });

  it('refuses a number beyond DynamoDB range with a 422 on its field', () => {
    try {
      storableDocument({ graphics_data: [{ left: 1e200 }] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(422);
      expect((error as AppError).details).toMatchObject({
        errors: { 'graphics_data.0.left': ['The number is too large.'] },
      });
    }
  });
});
