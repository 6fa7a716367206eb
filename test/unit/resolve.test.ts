import { describe, expect, it } from 'vitest';
import {
  DesignDocumentSchema,
  ParameterSchema,
  StickerSchema,
  TextSnippetSchema,
} from '#shared/design.ts';
import {
  applyTextTransform,
  declaredParameters,
  isUnfilledMergeTag,
  resolveParameter,
  resolveScene,
  resolveSnippetText,
} from '#shared/scene/resolve.ts';

const param = (
  name: string,
  fallback: string,
  key: 'allCaps' | 'lowerCase' | 'upperCase' | 'noSpaces' | null = null,
) =>
  ParameterSchema.parse({
    id: name,
    param_name: name,
    param_default_value: fallback,
    text_transform: { checkFormating: key !== null, formatOptionKey: key, formatOptionName: null },
  });

const snippet = (text: string, ...parameters: ReturnType<typeof param>[]) =>
  TextSnippetSchema.parse({ id: 's', text, left: 0, top: 0, width: 500, parameters });

describe('resolveParameter (DESIGN.md §5)', () => {
  it('uses the value, else the fallback', () => {
    expect(resolveParameter(param('first_name', 'there'), 'Ana')).toBe('Ana');
    expect(resolveParameter(param('first_name', 'there'), undefined)).toBe('there');
    expect(resolveParameter(param('first_name', 'there'), '   ')).toBe('there');
  });

  it('draws nothing for a blank fallback (a single space, spec 000 §3)', () => {
    expect(resolveParameter(param('first_name', ' '), undefined)).toBe('');
  });

  it.each(['{{cuf_123}}', '{{ first_name }}', '~Contact.FirstName~', '*|FNAME|*'])(
    'treats the unfilled merge tag %s as missing',
    (tag) => {
      expect(isUnfilledMergeTag(tag)).toBe(true);
      expect(resolveParameter(param('first_name', 'there'), tag)).toBe('there');
    },
  );

  it('keeps ordinary values that merely contain symbols', () => {
    for (const v of ['Ana {the great}', 'a~b', '50%', 'x*|y'])
      expect(isUnfilledMergeTag(v)).toBe(false);
  });

  it('cuts values at 255 characters without splitting an emoji', () => {
    expect(resolveParameter(param('n', 'x'), 'a'.repeat(300))).toHaveLength(255);
    const emoji = '😀'.repeat(300);
    const cut = resolveParameter(param('n', 'x'), emoji);
    expect(Array.from(cut)).toHaveLength(255);
    expect(cut.endsWith('😀')).toBe(true);
  });

  it('applies the text transform to the value and to the fallback', () => {
    expect(resolveParameter(param('n', 'there', 'allCaps'), 'ana maría')).toBe('ANA MARÍA');
    expect(resolveParameter(param('n', 'THERE', 'lowerCase'), undefined)).toBe('there');
  });
});

describe('applyTextTransform (spec 000 §3)', () => {
  it.each([
    ['allCaps', 'hello big world', 'HELLO BIG WORLD'],
    ['lowerCase', 'Hello BIG World', 'hello big world'],
    ['upperCase', 'hello big world', 'Hello Big World'],
    ['noSpaces', 'hello big  world', 'hellobigworld'],
  ] as const)('%s', (key, input, output) => {
    expect(applyTextTransform(input, key)).toBe(output);
  });
});

describe('resolveSnippetText', () => {
  it('fills every placeholder, spaced or not', () => {
    const s = snippet(
      'Hello {{first_name}}, from {{ company }}!',
      param('first_name', 'there'),
      param('company', 'us'),
    );
    expect(resolveSnippetText(s, { first_name: 'Ana' })).toBe('Hello Ana, from us!');
  });

  it('only counts declared parameters', () => {
    const s = snippet('Hi {{first_name}}{{secret}}', param('first_name', 'there'));
    expect(resolveSnippetText(s, { first_name: 'Ana', secret: 'x' })).toBe('Hi Ana');
  });
});

describe('resolveScene', () => {
  it('gives the canvas size, the resolved text and the half-size default minimum', () => {
    const doc = DesignDocumentSchema.parse({
      image_id: 'i',
      base_image_key: 'k',
      canvas_width: 1000,
      canvas_height: 625,
      text_snippets: [
        {
          id: 's',
          text: 'Hello {{first_name}}!',
          fontSize: 64,
          left: 50,
          top: 250,
          width: 900,
          parameters: [param('first_name', 'there')],
        },
      ],
    });
    const scene = resolveScene(doc, { first_name: 'Ana' });
    expect(scene).toMatchObject({
      width: 1000,
      height: 625,
      texts: [
        { text: 'Hello Ana!', fontSize: 64, minFontSize: 32, fontFamily: 'Journal', fill: 'black' },
      ],
    });
    expect(declaredParameters(doc)).toEqual(['first_name']);
  });
});

describe('parseDesignDocument', () => {
  it('validates once per stored document and still refuses broken ones', async () => {
    const { parseDesignDocument } = await import('#shared/design.ts');
    const raw = { image_id: 'i', base_image_key: 'k' };
    const first = parseDesignDocument(raw);
    expect(first.canvas_width).toBe(900);
    expect(parseDesignDocument(raw)).toBe(first);
    expect(() => parseDesignDocument({ nonsense: true })).toThrow();
  });
});

describe('resolveScene: how low a text may reach (docs/editor.md "Text fitting")', () => {
  /** A 900×600 design with a 40 px high name at (100, 100), 300 px wide, and `others`. */
  const withName = (
    stickers: Array<{ left: number; top: number; angle?: number }>,
    texts: Array<{ left: number; top: number; text?: string }> = [],
  ) =>
    DesignDocumentSchema.parse({
      image_id: 'i',
      base_image_key: 'k',
      canvas_width: 900,
      canvas_height: 600,
      text_snippets: [
        { id: 'name', text: 'Hi {{n}}', left: 100, top: 100, width: 300, height: 40 },
        ...texts.map((t, i) => ({
          id: `t${i}`,
          text: t.text ?? 'Offer',
          width: 200,
          height: 30,
          ...t,
        })),
      ],
      graphics_data: stickers.map((s, i) =>
        StickerSchema.parse({
          uuid: `g${i}`,
          url: 'files/a.png',
          width: 100,
          height: 100,
          scaleX: 1,
          scaleY: 1,
          ...s,
        }),
      ),
    });
  const floorOf = (doc: ReturnType<typeof withName>) =>
    resolveScene(doc, { n: 'Ana' }, Object.fromEntries(doc.graphics_data.map((g) => [g.uuid, 'x'])))
      .texts[0]!.maxBottom;

  it('reaches down to the canvas margin when nothing is below it', () => {
    expect(floorOf(withName([]))).toBe(595);
    // Beside it, not below it: the sticker does not overlap the text's width.
    expect(floorOf(withName([{ left: 420, top: 200 }]))).toBe(595);
  });

  it('stops at the top of a sticker or a text below it', () => {
    expect(floorOf(withName([{ left: 350, top: 260 }]))).toBe(260);
    expect(floorOf(withName([], [{ left: 0, top: 300 }]))).toBe(300);
    // An empty text draws nothing and takes no room.
    expect(floorOf(withName([], [{ left: 0, top: 300, text: ' ' }]))).toBe(595);
  });

  it('keeps its own box when an object starts inside it, and ignores what is above', () => {
    expect(floorOf(withName([{ left: 150, top: 120 }]))).toBe(140);
    expect(floorOf(withName([{ left: 150, top: 20 }]))).toBe(595);
  });

  it('counts a turned sticker by its upright bounds', () => {
    // 100×100 turned 90° about its top-left corner at (560, 250) spans x 460–560: beside the text
    // unturned (its box starts at 560), over its width turned.
    expect(floorOf(withName([{ left: 560, top: 250 }]))).toBe(595);
    expect(floorOf(withName([{ left: 450, top: 250, angle: 90 }]))).toBe(250);
  });
});
