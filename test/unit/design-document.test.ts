import { describe, expect, it } from 'vitest';
import { demoDesignDocument } from '#infra/local/seed.ts';
import {
  CURRENT_SCHEMA_VERSION,
  DESIGN_BOUNDS,
  DESIGN_MIGRATIONS,
  canvasForPhoto,
  DesignDocumentSchema,
  DesignRestoreError,
  ParameterSchema,
  StickerSchema,
  TextSnippetSchema,
  createDesignDocument,
  parseDesignDocument,
  restoreDesign,
} from '#shared/design.ts';
import { resolveScene } from '#shared/scene/resolve.ts';

/** The seeded demo design's document as the foundation stored it: a real version-1 sample. */
const v1Demo = () =>
  demoDesignDocument({ key: 'library/global/autumn.jpg', width: 1600, height: 1000 });

/** A design with the base image and whatever else the test needs. */
const design = (extra: Record<string, unknown> = {}) => ({
  schemaVersion: CURRENT_SCHEMA_VERSION,
  image_id: 'library-autumn',
  base_image_key: 'library/global/autumn.jpg',
  ...extra,
});

/** A drawable text snippet with one parameter per `{{name}}` in its text. */
const snippet = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  text,
  left: 10,
  top: 20,
  width: 300,
  parameters: Array.from(text.matchAll(/\{\{(\w+)\}\}/g), (m) => ({
    id: `${id}-${m[1]}`,
    param_name: m[1],
  })),
  ...extra,
});

const sticker = (uuid: string, extra: Record<string, unknown> = {}) => ({
  uuid,
  url: 'stickers/star.png',
  left: 100,
  top: 50,
  ...extra,
});

/** Restores a design with one snippet and gives that snippet plus the notes. */
function restoreSnippet(s: Record<string, unknown>) {
  const { document, repaired } = restoreDesign(design({ text_snippets: [s] }));
  return { snippet: document.text_snippets[0], repaired };
}

describe('defaults of spec 000 §3', () => {
  it('gives a text snippet font Journal, style normal, fill black, linked, no stroke', () => {
    const s = TextSnippetSchema.parse(snippet('s', 'Hello'));
    expect(s).toMatchObject({
      fontFamily: 'Journal',
      fontStyle: 'normal',
      fontWeight: 'normal',
      fill: 'black',
      linked: true,
      fontSize: 32,
      angle: 0,
      strokeWidth: 0,
      stroke: null,
      original_text: 'Hello',
    });
  });

  it.each([
    [undefined, 16],
    [40, 20],
    [45, 23],
    [80, 40],
  ])('sets the minimum font size to half of font size %s (rounded): %s', (fontSize, min) => {
    const s = TextSnippetSchema.parse(snippet('s', 'Hi', fontSize ? { fontSize } : {}));
    expect(s.minFontSize).toBe(min);
  });

  it('keeps a minimum font size that was set', () => {
    expect(
      TextSnippetSchema.parse(snippet('s', 'Hi', { fontSize: 40, minFontSize: 12 })).minFontSize,
    ).toBe(12);
  });

  it.each([[undefined], [''], ['   '], [' ']])(
    'stores a blank parameter default %j as a single space',
    (value) => {
      const p = ParameterSchema.parse({
        id: 'p',
        param_name: 'first_name',
        ...(value === undefined ? {} : { param_default_value: value }),
      });
      expect(p.param_default_value).toBe(' ');
    },
  );

  it('keeps a real default as written and links the parameter to its snippet', () => {
    const s = TextSnippetSchema.parse(
      snippet('s', 'Hi {{first_name}}', {
        parameters: [{ id: 'p', param_name: 'first_name', param_default_value: ' there ' }],
      }),
    );
    expect(s.parameters[0]).toMatchObject({
      param_default_value: ' there ',
      original_param_name: 'first_name',
      text_snippet_id: 's',
      merge_tag_value: null,
      text_transform: { checkFormating: false, formatOptionKey: null, formatOptionName: null },
    });
  });

  it('places a sticker at scale 0.1 of 512 px, top-left origin, QR margin 0 and colour #111111', () => {
    expect(StickerSchema.parse(sticker('s'))).toMatchObject({
      type: 'stickers',
      stickerType: 'plain',
      width: 512,
      height: 512,
      scaleX: 0.1,
      scaleY: 0.1,
      originX: 'left',
      originY: 'top',
      marginSize: 0,
      qrCodeColor: '#111111',
      filters: [],
    });
  });

  it('gives a design a 900x600 px canvas in px, unflipped, with the export fields empty', () => {
    const { document } = restoreDesign(design());
    expect(document).toMatchObject({
      schemaVersion: CURRENT_SCHEMA_VERSION,
      canvas_width: 900,
      canvas_height: 600,
      size_option: 'px',
      flip_x: false,
      flip_y: false,
      image_angle: 0,
      filters: {},
      enhance: {},
      image_tags: [],
      text_snippets: [],
      graphics_data: [],
      merge_tag_provider: null,
      merge_tag_storefront: null,
      merge_tag_choices: [],
      html_link_url: null,
    });
  });
});

describe('createDesignDocument', () => {
  const init = { image_id: 'library-autumn', base_image_key: 'library/global/autumn.jpg' };

  it('caps the canvas width at 1056 px and keeps the aspect ratio', () => {
    const doc = createDesignDocument({ ...init, image_width: 1600, image_height: 1000 });
    expect([doc.canvas_width, doc.canvas_height]).toEqual([1056, 660]);
    expect([doc.image_width, doc.image_height]).toEqual([1600, 1000]);
  });

  it('uses the image size when it fits', () => {
    const doc = createDesignDocument({ ...init, image_width: 640, image_height: 960 });
    expect([doc.canvas_width, doc.canvas_height]).toEqual([640, 960]);
  });

  it('falls back to 900x600 when the image size is unknown', () => {
    const doc = createDesignDocument({ ...init, image_width: 0, image_height: 0 });
    expect([doc.canvas_width, doc.canvas_height]).toEqual([900, 600]);
    expect(doc.image_width).toBeNull();
  });

  it('makes a document that restores without repairs', () => {
    const doc = createDesignDocument({ ...init, image_width: 1200, image_height: 800 });
    expect(restoreDesign(doc)).toEqual({ document: doc, repaired: [] });
  });

  it('refuses a design without a base image', () => {
    expect(() =>
      createDesignDocument({ ...init, base_image_key: '', image_width: 10, image_height: 10 }),
    ).toThrow();
  });
});

describe('migrations', () => {
  it('ends the ordered list at the current version, one step at a time', () => {
    expect(DESIGN_MIGRATIONS.map((m) => m.to)).toEqual(
      Array.from({ length: CURRENT_SCHEMA_VERSION - 1 }, (_, i) => i + 2),
    );
  });

  it('brings the seeded demo design (version 1) to the current version without repairs', () => {
    const stored = v1Demo();
    const before = structuredClone(stored);
    const { document, repaired } = restoreDesign(stored);
    expect(stored).toEqual(before);
    expect(repaired).toEqual([]);
    expect(document.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    const hello = document.text_snippets[0]!;
    expect(hello).toMatchObject({
      id: 'snippet-hello',
      text: 'Hello {{first_name}}!',
      original_text: 'Hello {{first_name}}!',
      fontSize: 64,
      minFontSize: 32,
      fontFamily: 'Noto Sans',
    });
    expect(hello.parameters[0]).toMatchObject({
      param_name: 'first_name',
      original_param_name: 'first_name',
      param_default_value: 'there',
      text_snippet_id: 'snippet-hello',
    });
  });

  it('fills what version 1 left to draw time: half-size minimum, blank fallback as one space', () => {
    const { document } = restoreDesign({
      schemaVersion: 1,
      image_id: 'i',
      base_image_key: 'k',
      text_snippets: [
        {
          id: 'a',
          text: 'Hi {{name}}',
          fontSize: 50,
          left: 0,
          top: 0,
          width: 200,
          parameters: [{ id: 'p', param_name: 'name', param_default_value: '' }],
        },
      ],
    });
    const [a] = document.text_snippets;
    expect(a!.minFontSize).toBe(25);
    expect(a!.parameters[0]!.param_default_value).toBe(' ');
    expect(a!.parameters[0]!.text_snippet_id).toBe('a');
  });

  it('gives a version-3 document no rules, so it draws and links exactly as before', () => {
    const v3 = { ...design(), schemaVersion: 3, html_link_url: 'https://shop.example.com/' };
    const before = structuredClone(v3);
    const { document, repaired } = restoreDesign(v3);
    expect(v3).toEqual(before);
    expect(repaired).toEqual([]);
    expect(document.schemaVersion).toBe(5);
    expect(document.rules).toEqual([]);
    expect(document.hidden_stickers).toEqual([]);
    expect(document.html_link_url).toBe('https://shop.example.com/');
    const { rules: _r, hidden_stickers: _h, ...rest } = document;
    const { rules: _r2, hidden_stickers: _h2, ...current } = restoreDesign(design()).document;
    expect(rest).toEqual({ ...current, html_link_url: 'https://shop.example.com/' });
  });

  it('gives a version-4 document no data bindings, so it looks nothing up and draws as before', () => {
    const v4 = { ...design(), schemaVersion: 4 };
    const before = structuredClone(v4);
    const { document, repaired } = restoreDesign(v4);
    expect(v4).toEqual(before);
    expect(repaired).toEqual([]);
    expect(document.schemaVersion).toBe(5);
    expect(document.data_bindings).toEqual([]);
    const { data_bindings: _d, ...rest } = document;
    const { data_bindings: _d2, ...current } = restoreDesign(design()).document;
    expect(rest).toEqual(current);
  });

  it('keeps data bindings, and drops invalid ones to none', () => {
    const binding = {
      source: 'store',
      source_id: 'store-1',
      key_param: 'sku',
      fields: [{ field: 'Name', param: 'product' }],
    };
    const kept = restoreDesign({ ...design(), data_bindings: [binding] }).document;
    expect(kept.data_bindings).toEqual([binding]);
    const bad = restoreDesign({ ...design(), data_bindings: [{ source: 'sql' }] });
    expect(bad.document.data_bindings).toEqual([]);
    expect(bad.repaired.join('\n')).toMatch(/data_bindings/);
  });

  it('reads a document without schemaVersion as version 1', () => {
    const { schemaVersion: _, ...unversioned } = v1Demo();
    expect(restoreDesign(unversioned)).toEqual(restoreDesign(v1Demo()));
  });

  it('lets DesignDocumentSchema build documents from version-1 input too', () => {
    expect(DesignDocumentSchema.parse(v1Demo())).toEqual(restoreDesign(v1Demo()).document);
  });

  it('draws the migrated demo design exactly as version 1 did', () => {
    const { document } = restoreDesign(v1Demo());
    const scene = resolveScene(document, { first_name: 'Ana' });
    expect(scene.texts).toEqual([
      expect.objectContaining({ text: 'Hello Ana!', fontSize: 64, minFontSize: 32, width: 900 }),
    ]);
    expect([scene.width, scene.height]).toEqual([1000, 625]);
  });
});

describe('restoreDesign repairs', () => {
  it.each([
    ['fontSize', 120, 80, 'fontSize 120 clamped to 80'],
    ['strokeWidth', 9, 5, 'strokeWidth 9 clamped to 5'],
    ['strokeWidth', -1, 0, 'strokeWidth -1 clamped to 0'],
    ['angle', 400, 40, 'angle 400 brought into 0–360 as 40'],
    ['angle', -90, 270, 'angle -90 brought into 0–360 as 270'],
  ])('brings a text snippet %s of %s to %s', (field, value, fixed, note) => {
    const { snippet: s, repaired } = restoreSnippet(snippet('s', 'Hi', { [field]: value }));
    expect(s![field as 'fontSize']).toBe(fixed);
    expect(repaired).toEqual([`text snippet "s": ${note}`]);
  });

  it('lowers a minimum font size above the font size to it (spec 000 §5)', () => {
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Hi', { fontSize: 30, minFontSize: 50 }),
    );
    expect(s!.minFontSize).toBe(30);
    expect(repaired).toEqual(['text snippet "s": minFontSize 50 lowered to the font size 30']);
  });

  it('clamps and rounds the QR margin to a whole number of modules in 0–20', () => {
    const { document, repaired } = restoreDesign(
      design({ graphics_data: [sticker('qr', { marginSize: 30.4 })] }),
    );
    expect(document.graphics_data[0]!.marginSize).toBe(20);
    expect(repaired).toEqual([
      'sticker "qr": marginSize 30.4 rounded to 30',
      'sticker "qr": marginSize 30 clamped to 20',
    ]);
  });

  it('caps the canvas width at 1056 px and rounds it to whole px', () => {
    const { document, repaired } = restoreDesign(
      design({ canvas_width: 1400.6, canvas_height: 700 }),
    );
    expect([document.canvas_width, document.canvas_height]).toEqual([1056, 700]);
    expect(repaired).toEqual([
      'design: canvas_width 1400.6 rounded to 1401',
      'design: canvas_width 1401 clamped to 1056',
    ]);
  });

  it('cuts a fallback longer than 255 characters without splitting an emoji', () => {
    const long = '😀'.repeat(300);
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Hi {{n}}', {
        parameters: [{ id: 'p', param_name: 'n', param_default_value: long }],
      }),
    );
    expect(Array.from(s!.parameters[0]!.param_default_value)).toHaveLength(255);
    expect(s!.parameters[0]!.param_default_value.endsWith('😀')).toBe(true);
    expect(repaired).toEqual([
      'text snippet "s" parameter "p": param_default_value cut to 255 characters',
    ]);
  });

  it('resets an invalid value that has a default, and drops bad entries of the filter map', () => {
    const { document, repaired } = restoreDesign(
      design({
        size_option: 'furlongs',
        filters: { Sepia: true, Vintage: 'yes' },
        text_snippets: [snippet('s', 'Hi', { textAlign: 'middle' })],
      }),
    );
    expect(document.size_option).toBe('px');
    expect(document.filters).toEqual({ Sepia: true });
    expect(document.text_snippets[0]!.textAlign).toBe('left');
    expect(repaired).toEqual([
      'text snippet "s": textAlign "middle" was invalid; reset to its default',
      'design: size_option "furlongs" was invalid; reset to its default',
      'design: filters: entry Vintage "yes" was invalid; removed',
    ]);
  });

  it('reads a numeric font weight as bold or normal', () => {
    const { snippet: s, repaired } = restoreSnippet(snippet('s', 'Hi', { fontWeight: '700' }));
    expect(s!.fontWeight).toBe('bold');
    expect(repaired).toEqual(['text snippet "s": fontWeight 700 read as bold']);
  });

  it('takes a text snippet id from its uuid', () => {
    const { id: _, ...withoutId } = snippet('x', 'Hi');
    const { snippet: s, repaired } = restoreSnippet({ ...withoutId, uuid: 'u-1' });
    expect(s!.id).toBe('u-1');
    expect(repaired).toEqual(['text snippet "u-1": id taken from uuid']);
  });

  it('drops the text snippets and stickers that cannot be drawn and keeps the rest', () => {
    const { left: _, ...noLeft } = snippet('no-left', 'Lost');
    const { top: __, ...stickerNoTop } = sticker('no-top');
    const { document, repaired } = restoreDesign(
      design({
        text_snippets: [snippet('ok', 'Hi'), noLeft, snippet('flat', 'x', { width: 0 }), 'junk'],
        graphics_data: [
          sticker('star'),
          stickerNoTop,
          sticker('blank', { url: '' }),
          sticker('qr', { url: '', stickerType: 'dynamicSticker' }),
        ],
      }),
    );
    expect(document.text_snippets.map((s) => s.id)).toEqual(['ok']);
    expect(document.graphics_data.map((s) => s.uuid)).toEqual(['star']);
    expect(repaired).toEqual([
      'text snippet "no-left" dropped: no left',
      'text snippet "flat" dropped: width is invalid (Too small: expected number to be >0)',
      'text snippet 3 dropped: not an object',
      'sticker "no-top" dropped: no top',
      'sticker "blank" dropped: no image url',
      'sticker "qr" dropped: a dynamic sticker without a dynamicStickerType',
    ]);
  });

  it('drops a parameter without a name but keeps its snippet', () => {
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Hi {{a}}', { parameters: [{ id: 'p-a', param_name: 'a' }, { id: 'p-x' }] }),
    );
    expect(s!.parameters.map((p) => p.id)).toEqual(['p-a']);
    expect(repaired).toEqual(['text snippet "s" parameter "p-x" dropped: no param_name']);
  });

  it('empties a snippet list that is not a list', () => {
    const { document, repaired } = restoreDesign(design({ text_snippets: 'oops' }));
    expect(document.text_snippets).toEqual([]);
    expect(repaired).toEqual(['design: text_snippets "oops" was not a list; emptied']);
  });

  it('renames duplicate snippet, sticker and parameter ids', () => {
    const { document, repaired } = restoreDesign(
      design({
        text_snippets: [
          snippet('s', 'A {{a}}', { parameters: [{ id: 'p', param_name: 'a' }] }),
          snippet('s', 'B {{b}}', { parameters: [{ id: 'p', param_name: 'b' }] }),
          snippet('s-2', 'C'),
        ],
        graphics_data: [sticker('g'), sticker('g')],
      }),
    );
    expect(document.text_snippets.map((s) => s.id)).toEqual(['s', 's-3', 's-2']);
    expect(document.graphics_data.map((s) => s.uuid)).toEqual(['g', 'g-2']);
    expect(document.text_snippets.flatMap((s) => s.parameters.map((p) => p.id))).toEqual([
      'p',
      'p-2',
    ]);
    expect(document.text_snippets[1]!.parameters[0]!.text_snippet_id).toBe('s-3');
    expect(repaired).toEqual([
      'text snippet "s": duplicate id renamed "s-3"',
      'sticker "g": duplicate id renamed "g-2"',
      'parameter "p": duplicate id renamed "p-2"',
      'text snippet "s-3": parameter "b" re-linked to its snippet',
    ]);
  });

  it('re-links a parameter to the snippet that holds it', () => {
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Hi {{a}}', {
        parameters: [{ id: 'p', param_name: 'a', text_snippet_id: 'elsewhere' }],
      }),
    );
    expect(s!.parameters[0]!.text_snippet_id).toBe('s');
    expect(repaired).toEqual(['text snippet "s": parameter "a" re-linked to its snippet']);
  });

  it('re-links a renamed parameter to the placeholder left under its old name', () => {
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Hi {{ old }}!', {
        original_text: 'Hi {{ old }}!',
        parameters: [{ id: 'p', param_name: 'first_name', original_param_name: 'old' }],
      }),
    );
    expect(s!.text).toBe('Hi {{first_name}}!');
    expect(s!.original_text).toBe('Hi {{first_name}}!');
    expect(s!.parameters.map((p) => p.param_name)).toEqual(['first_name']);
    expect(repaired).toEqual([
      'text snippet "s": placeholder {{old}} re-linked to parameter "first_name"',
    ]);
    expect(
      resolveScene(restoreDesign(design({ text_snippets: [s] })).document, {
        first_name: 'Ana',
      }).texts[0]!.text,
    ).toBe('Hi Ana!');
  });

  it('removes a parameter whose placeholder is gone, and a second one of the same name', () => {
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Hi {{a}}', {
        parameters: [
          { id: 'p1', param_name: 'a', param_default_value: 'first' },
          { id: 'p2', param_name: 'a', param_default_value: 'second' },
          { id: 'p3', param_name: 'gone' },
        ],
      }),
    );
    expect(s!.parameters.map((p) => p.id)).toEqual(['p1']);
    expect(repaired).toEqual([
      'text snippet "s": second parameter named "a" removed',
      'text snippet "s": parameter "gone" has no {{gone}} in the text; removed',
    ]);
  });

  it('keeps a parameter that feeds a dynamic sticker although the text has no placeholder', () => {
    const { snippet: s, repaired } = restoreSnippet(
      snippet('s', 'Scan me', {
        parameters: [{ id: 'p', param_name: 'qrCode1', dynamicStickerParamName: 'qrCode1' }],
      }),
    );
    expect(s!.parameters).toHaveLength(1);
    expect(repaired).toEqual([]);
  });

  it('moves a sticker saved with a centre origin to the same place with a top-left origin', () => {
    // 512 x 0.1 = 51.2 px square, centred on (100, 100), turned 90° clockwise.
    const { document, repaired } = restoreDesign(
      design({
        graphics_data: [
          sticker('s', { left: 100, top: 100, originX: 'center', originY: 'center', angle: 90 }),
        ],
      }),
    );
    const s = document.graphics_data[0]!;
    expect(s.originX).toBe('left');
    expect(s.originY).toBe('top');
    expect(s.left).toBeCloseTo(125.6, 6);
    expect(s.top).toBeCloseTo(74.4, 6);
    expect(repaired).toEqual([
      'sticker "s": origin center/center converted to left/top (125.6, 74.4)',
    ]);
  });

  it('reads an unusable schemaVersion as version 1', () => {
    const { document, repaired } = restoreDesign({ ...v1Demo(), schemaVersion: 'one' });
    expect(document.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    expect(repaired).toEqual(['schemaVersion "one" is not a version; read as version 1']);
  });
});

describe('design bounds (docs/security.md "Design bounds")', () => {
  const dynamic = (uuid: string) =>
    sticker(uuid, { url: '', stickerType: 'dynamicSticker', dynamicStickerType: 'qrCode' });
  const fieldsOf = (result: {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  }) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

  it('refuses a write past each bound with a message naming it', () => {
    const over = DesignDocumentSchema.safeParse(
      design({
        canvas_height: DESIGN_BOUNDS.canvasHeight + 1,
        text_snippets: [snippet('s', 'x'.repeat(DESIGN_BOUNDS.textLength + 1))],
        graphics_data: [sticker('big', { width: 10, scaleX: DESIGN_BOUNDS.stickerScale + 1 })],
      }),
    );
    expect(fieldsOf(over)).toMatchObject({
      canvas_height: 'The canvas height may not be greater than 4096.',
      'text_snippets.0.text': 'The text may not be greater than 1000 characters.',
      'graphics_data.0.scaleX': 'The scale x may not be greater than 100.',
    });
    const many = DesignDocumentSchema.safeParse(
      design({ graphics_data: Array.from({ length: 51 }, (_, i) => sticker(`s${i}`)) }),
    );
    expect(fieldsOf(many)).toEqual({
      graphics_data: 'The stickers may not have more than 50 items.',
    });
    const dynamics = DesignDocumentSchema.safeParse(
      design({ graphics_data: Array.from({ length: 11 }, (_, i) => dynamic(`d${i}`)) }),
    );
    expect(fieldsOf(dynamics)).toEqual({
      graphics_data: 'The stickers may not have more than 10 dynamic stickers.',
    });
  });

  it('refuses a sticker drawn larger than 4096 px, whatever its scale and size', () => {
    const wide = StickerSchema.safeParse(sticker('w', { width: 4096, scaleX: 1.5 }));
    expect(fieldsOf(wide)).toEqual({ scaleX: 'The sticker may not be drawn wider than 4096 px.' });
    expect(StickerSchema.safeParse(sticker('ok', { width: 4096, scaleX: 1 })).success).toBe(true);
  });

  it('accepts a design at every bound', () => {
    const full = DesignDocumentSchema.safeParse(
      design({
        canvas_width: 1056,
        canvas_height: 4096,
        text_snippets: Array.from({ length: 50 }, (_, i) =>
          snippet(`s${i}`, 'y'.repeat(DESIGN_BOUNDS.textLength)),
        ),
        graphics_data: [
          ...Array.from({ length: 10 }, (_, i) => dynamic(`d${i}`)),
          ...Array.from({ length: 40 }, (_, i) => sticker(`p${i}`)),
        ],
      }),
    );
    expect(full.success).toBe(true);
  });

  it('restores a stored design past the bounds by clamping and cutting, with notes', () => {
    const { document, repaired } = restoreDesign(
      design({
        canvas_height: 9000,
        text_snippets: Array.from({ length: 52 }, (_, i) => snippet(`s${i}`, 'Hi')),
        graphics_data: [
          ...Array.from({ length: 12 }, (_, i) => dynamic(`d${i}`)),
          sticker('huge', { width: 1000, scaleX: 50 }),
        ],
      }),
    );
    expect(document.canvas_height).toBe(4096);
    expect(document.text_snippets).toHaveLength(50);
    expect(document.graphics_data.filter((s) => s.stickerType === 'dynamicSticker')).toHaveLength(
      10,
    );
    const huge = document.graphics_data.find((s) => s.uuid === 'huge')!;
    expect(huge.width * huge.scaleX).toBeLessThanOrEqual(4096);
    expect(repaired).toEqual(
      expect.arrayContaining([
        'sticker "d10" dropped: over 10 dynamic stickers',
        'design: canvas_height 9000 clamped to 4096',
        'design: text_snippets: 52 items cut to the first 50',
      ]),
    );
    expect(restoreDesign(document).repaired).toEqual([]);
  });

  it('narrows the canvas of a photo too tall for the bounds', () => {
    expect(canvasForPhoto(1056, { width: 1000, height: 8000 })).toEqual({
      canvas_width: 512,
      canvas_height: 4096,
    });
    expect(canvasForPhoto(900, { width: 900, height: 600 })).toEqual({
      canvas_width: 900,
      canvas_height: 600,
    });
  });
});

describe('restoreDesign refuses what cannot be made usable', () => {
  it.each([
    ['no base image key', design({ base_image_key: '' }), 'The design has no base image.'],
    ['no image id', { base_image_key: 'k' }, 'The design has no base image.'],
    ['not an object', 'hello', 'The design document is not an object.'],
    ['a list', [design()], 'The design document is not an object.'],
  ])('%s', (_, raw, message) => {
    expect(() => restoreDesign(raw)).toThrow(message);
  });

  it('names the missing fields in the error', () => {
    try {
      restoreDesign({ image_id: 'i' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DesignRestoreError);
      expect((error as DesignRestoreError).issues.map((i) => i.path)).toEqual([['base_image_key']]);
    }
  });

  it('refuses a document from a newer schema version', () => {
    expect(() => restoreDesign(design({ schemaVersion: CURRENT_SCHEMA_VERSION + 1 }))).toThrow(
      DesignRestoreError,
    );
  });
});

describe('restore is idempotent', () => {
  const messy = () =>
    design({
      schemaVersion: 1,
      canvas_width: 2000,
      image_angle: -90,
      filters: { Sepia: true, Bad: 1 },
      text_snippets: [
        snippet('a', 'x {{n}} {{old}}', {
          fontSize: 120,
          strokeWidth: 9,
          angle: 400,
          minFontSize: 100,
          parameters: [
            { id: 'p', param_name: 'n', param_default_value: 'x'.repeat(300) },
            { id: 'p', param_name: 'm', original_param_name: 'old' },
            { id: 'q', param_name: 'z' },
          ],
        }),
        snippet('a', 'y'),
        { text: 'no id' },
      ],
      graphics_data: [
        sticker('s', { originX: 'right', originY: 'bottom', angle: 30, marginSize: 30.5 }),
        sticker('s'),
        sticker('t', { url: '' }),
      ],
    });

  it.each([
    ['the seeded demo design', v1Demo],
    ['a design that needed every kind of repair', messy],
  ])('restoring %s twice changes nothing the second time', (_, make) => {
    const first = restoreDesign(make());
    const second = restoreDesign(first.document);
    expect(second.repaired).toEqual([]);
    expect(second.document).toEqual(first.document);
  });

  it('reports the messy design’s repairs once', () => {
    expect(restoreDesign(messy()).repaired.length).toBeGreaterThan(10);
  });
});

describe('parseDesignDocument (render hot path)', () => {
  it('restores each stored document once and draws the repaired design', () => {
    const raw = design({ text_snippets: [snippet('s', 'Hi', { fontSize: 200 })] });
    const first = parseDesignDocument(raw);
    expect(parseDesignDocument(raw)).toBe(first);
    expect(first.text_snippets[0]!.fontSize).toBe(80);
    expect(() => parseDesignDocument({ nonsense: true })).toThrow(DesignRestoreError);
  });
});
