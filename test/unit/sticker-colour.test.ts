import { describe, expect, it } from 'vitest';
import { DesignDocumentSchema, StickerSchema } from '#shared/design.ts';
import { resolveScene } from '#shared/scene/resolve.ts';
import { stickerColourFilters } from '#shared/scene/filters.ts';
import { stickerColour, withStickerColour } from '#shared/scene/sticker-filters.ts';

const sticker = (extra: Record<string, unknown> = {}) =>
  StickerSchema.parse({ uuid: 's1', url: 'stickers/star.png', left: 10, top: 20, ...extra });

describe('sticker colour filter (docs/editor.md "Sticker colour")', () => {
  it("accepts the spec's shape: the first filter has a colour, mode screen", () => {
    const saved = sticker({
      filters: [{ type: 'BlendColor', color: '#ff0000', mode: 'screen', alpha: 1 }],
    });
    expect(stickerColour(saved.filters)).toBe('#ff0000');
  });

  it('leaves an old sticker without filters uncoloured', () => {
    const old = sticker();
    expect(old.filters).toEqual([]);
    expect(stickerColour(old.filters)).toBeNull();
    expect(stickerColour(sticker({ filters: [{ type: 'Grayscale' }] }).filters)).toBeNull();
  });

  it('sets, replaces and clears the first filter, keeping the rest', () => {
    const set = withStickerColour([{ type: 'Grayscale' }], '#00ff00');
    expect(set).toEqual([
      { type: 'BlendColor', color: '#00ff00', mode: 'screen', alpha: 1 },
      { type: 'Grayscale' },
    ]);
    const replaced = withStickerColour(set, '#0000ff');
    expect(replaced.map((f) => f.color)).toEqual(['#0000ff', undefined]);
    expect(withStickerColour(replaced, null)).toEqual([{ type: 'Grayscale' }]);
    expect(StickerSchema.parse({ ...sticker(), filters: set }).filters).toEqual(set);
  });

  it('builds one BlendColor in mode screen from the colour, none without one', () => {
    const [blend, ...more] = stickerColourFilters('#ff0000');
    expect(more).toEqual([]);
    expect(blend).toMatchObject({ type: 'BlendColor', color: '#ff0000', mode: 'screen', alpha: 1 });
    expect(stickerColourFilters(undefined)).toEqual([]);
  });

  it('passes the colour to the drawn layer of the scene, and nothing for an uncoloured one', () => {
    const graphics_data = [
      sticker({ filters: withStickerColour([], '#ff0000') }),
      { ...sticker(), uuid: 's2' },
    ];
    const doc = DesignDocumentSchema.parse({ image_id: 'i', base_image_key: 'k', graphics_data });
    const scene = resolveScene(doc, {}, { s1: 'a.png', s2: 'b.png' });
    expect(scene.images.map((i) => i.colour)).toEqual(['#ff0000', undefined]);
    expect('colour' in scene.images[1]!).toBe(false);
  });
});
