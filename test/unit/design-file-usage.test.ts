/**
 * Whether a design draws an uploaded file, as the refusal to delete an upload in use reads it
 * (functions/designs/usage.ts; docs/security.md "Deleted uploads"). It must read a sticker's URL
 * exactly as the render does (shared/resources.ts `publicFileKey`), or a file the render draws
 * could be deleted from under a design.
 */
import { describe, expect, it } from 'vitest';
import { documentUsesFile } from '#functions/designs/usage.ts';

const KEY = 'files/uploads/team-a/3f2a.png';

describe('documentUsesFile', () => {
  it('finds the file as the base photo', () => {
    expect(documentUsesFile({ base_image_key: KEY }, KEY)).toBe(true);
  });

  it.each([KEY, `/${KEY}`])('finds the file as a sticker drawn from %s', (url) => {
    expect(documentUsesFile({ graphics_data: [{ url } as never] }, KEY)).toBe(true);
  });

  it('does not count another file, a foreign URL or a malformed sticker list', () => {
    expect(documentUsesFile({ base_image_key: 'files/uploads/team-a/other.png' }, KEY)).toBe(false);
    expect(
      documentUsesFile({ graphics_data: [{ url: `https://cdn.example/${KEY}` } as never] }, KEY),
    ).toBe(false);
    expect(documentUsesFile({ graphics_data: 'nope' as never }, KEY)).toBe(false);
    expect(documentUsesFile({ graphics_data: [null as never, { url: 7 } as never] }, KEY)).toBe(
      false,
    );
  });
});
