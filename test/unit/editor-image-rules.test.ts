/**
 * The image toolbar's and stickers' pure rules (docs/editor.md; docs/editor.md "Editing rules"
 * clamps, crop and QR rules, docs/editor.md "Constants" units, sticker placement): unit conversions
 * and steps, the size counters' clamps and aspect lock, the crop rectangle and its too-small rule,
 * sticker scale and placement, QR limits and dynamic parameter names.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CANVAS_WIDTH, StickerSchema } from '#shared/design.ts';
import {
  canvasSizeFor,
  clampCropRect,
  CROP_START,
  cropTooSmall,
  croppedDocument,
  rotatedQuarter,
} from '../../web/src/features/editor/document/image.ts';
import {
  fallbackProblem,
  FALLBACK_MESSAGES,
  LARGE_IMAGE,
  largeImageDivisor,
  newSticker,
  newStickerScale,
  STICKER_SIZE,
  dynamicStickerParamName,
  qrImageUrl,
  transformedSticker,
} from '../../web/src/features/editor/document/stickers.ts';
import {
  pxToUnit,
  stepPx,
  unitToPx,
  UNIT_STEP,
} from '../../web/src/features/editor/document/units.ts';
import { stickerImageUrl } from '../../web/src/features/editor/document/preview.ts';
import { demoDocument } from '../support/editor.ts';

describe('units (spec 000 §9)', () => {
  it('converts px with the spec factors and back to whole px', () => {
    expect(pxToUnit(960, 'in')).toBe(10);
    expect(pxToUnit(1000, 'mm')).toBe(264.6);
    expect(pxToUnit(1000, 'cm')).toBe(26.46);
    expect(pxToUnit(1000, 'px')).toBe(1000);
    expect(unitToPx(10, 'in')).toBe(960);
    expect(unitToPx(100, 'mm')).toBe(378);
    expect(unitToPx(10, 'cm')).toBe(378);
  });

  it('steps 10 in px and 1 in the other units', () => {
    expect(UNIT_STEP).toEqual({ px: 10, in: 1, mm: 1, cm: 1 });
    expect(stepPx(1000, 'px', 1)).toBe(1010);
    expect(stepPx(1000, 'px', -1)).toBe(990);
    expect(stepPx(960, 'in', 1)).toBe(1056);
    // 264.6 mm + 1 mm = 265.6 mm = 1004 px
    expect(stepPx(1000, 'mm', 1)).toBe(1004);
    expect(stepPx(1000, 'cm', -1)).toBe(962);
  });
});

describe('size counters (spec 000 §5)', () => {
  const design = demoDocument(); // 1000x750, photo size unknown

  it('clamp to 1 and to the 1056 px width', () => {
    expect(canvasSizeFor(design, 'width', 5000, false)).toEqual({
      width: MAX_CANVAS_WIDTH,
      height: 750,
    });
    expect(canvasSizeFor(design, 'width', -3, false)).toEqual({ width: 1, height: 750 });
    expect(canvasSizeFor(design, 'height', 0, false)).toEqual({ width: 1000, height: 1 });
  });

  it('keep the aspect when locked, the height staying above 0', () => {
    expect(canvasSizeFor(design, 'width', 800, true)).toEqual({ width: 800, height: 600 });
    expect(canvasSizeFor(design, 'height', 300, true)).toEqual({ width: 400, height: 300 });
    const tiny = canvasSizeFor(design, 'width', 1, true);
    expect(tiny.height).toBeGreaterThanOrEqual(1);
    // 1056 wide at 4:3 is 792 high: the height limit at the photo's aspect
    expect(canvasSizeFor(design, 'height', 5000, true)).toEqual({ width: 1056, height: 792 });
  });

  it('rotating a quarter swaps the canvas and keeps the width within 1056', () => {
    const turned = rotatedQuarter(design);
    expect(turned.image_angle).toBe(90);
    expect([turned.canvas_width, turned.canvas_height]).toEqual([750, 1000]);
    const wide = rotatedQuarter({ ...design, canvas_width: 600, canvas_height: 1200 });
    expect([wide.canvas_width, wide.canvas_height]).toEqual([1056, 528]);
    expect(rotatedQuarter(rotatedQuarter(rotatedQuarter(turned))).image_angle).toBe(0);
  });
});

describe('crop (spec 000 §4, §5, §8)', () => {
  const design = demoDocument(); // snippet 900 wide at (50, 327), 64 px

  it('starts at 20,20 120x120 and stays inside with 5 px tolerance', () => {
    expect(CROP_START).toEqual({ left: 20, top: 20, width: 120, height: 120 });
    const canvas = { width: 1000, height: 750 };
    expect(clampCropRect({ left: -50, top: 900, width: 200, height: 100 }, canvas)).toEqual({
      left: -5,
      top: 655,
      width: 200,
      height: 100,
    });
    expect(clampCropRect({ left: 0, top: 0, width: 5000, height: 5000 }, canvas)).toMatchObject({
      width: 1000,
      height: 750,
    });
  });

  it('is too small when a text snippet does not fit inside it', () => {
    expect(cropTooSmall(design, CROP_START)).toBe(true);
    expect(cropTooSmall(design, { left: 40, top: 200, width: 920, height: 300 })).toBe(false);
    expect(cropTooSmall(design, { left: 40, top: 200, width: 905, height: 300 })).toBe(true);
    expect(cropTooSmall({ ...design, text_snippets: [] }, CROP_START)).toBe(false);
  });

  it('resizes the canvas, moves objects by the corner, drops those outside', () => {
    const withSticker = {
      ...design,
      image_angle: 90,
      flip_x: true,
      graphics_data: [
        StickerSchema.parse({ uuid: 'in', url: 'files/a.png', left: 100, top: 100 }),
        StickerSchema.parse({ uuid: 'out', url: 'files/b.png', left: 900, top: 650 }),
      ],
    };
    const image = { id: 'crop-1', key: 'files/crops/t/x.png', width: 1200, height: 600 };
    const next = croppedDocument(
      withSticker,
      { left: 20, top: 20, width: 600, height: 500 },
      image,
    );
    expect([next.canvas_width, next.canvas_height]).toEqual([600, 500]);
    expect([next.image_id, next.base_image_key, next.image_angle, next.flip_x]).toEqual([
      'crop-1',
      'files/crops/t/x.png',
      0,
      false,
    ]);
    expect(next.graphics_data.map((s) => [s.uuid, s.left, s.top])).toEqual([['in', 80, 80]]);
    // the snippet (900 wide) overlaps: kept, narrowed to the canvas and moved inside
    expect(next.text_snippets).toHaveLength(1);
    expect(next.text_snippets[0]!.width).toBe(590);
    expect(next.text_snippets[0]!.left).toBe(5);
  });

  it('makes a legacy design a covering one: the crop is the picture as drawn, white included', () => {
    const legacy = { ...design, legacy_base_image_width: 500 as const };
    const image = { id: 'crop-2', key: 'files/crops/t/y.png', width: 700, height: 400 };
    const next = croppedDocument(legacy, { left: 300, top: 0, width: 700, height: 400 }, image);
    expect(next.legacy_base_image_width).toBeNull();
    expect([next.canvas_width, next.canvas_height]).toEqual([700, 400]);
  });
});

/** The SVG text of a base64 SVG data URL. */
const svgOf = (url: string) =>
  Buffer.from(url.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');

describe('sticker placement (spec 000 §9)', () => {
  const canvas = { width: 1000, height: 750 };

  it('adds a 512 px sticker at scale 0.1, centred, 10 px from the top', () => {
    const s = newSticker(
      demoDocument(),
      { kind: 'image', url: 'files/stickers/a.png', stickerType: 'plain', width: 512, height: 512 },
      'u1',
      'https://app',
    );
    expect([s.scaleX, s.scaleY]).toEqual([0.1, 0.1]);
    expect(s.top).toBe(10);
    expect(s.left).toBe(Math.round((1000 - 51.2) / 2));
    // A second one moves 10 px down and right until it overlaps none (51.2 px: 6 steps).
    const next = newSticker(
      { ...demoDocument(), graphics_data: [s] },
      { kind: 'image', url: 'files/stickers/b.png', stickerType: 'plain', width: 512, height: 512 },
      'u2',
      'https://app',
    );
    expect([next.left, next.top]).toEqual([s.left + 60, 70]);
  });

  it('does not drop a new sticker over a text at its spot', () => {
    const design = demoDocument();
    const [text] = design.text_snippets;
    // A headline across the top, where a new sticker would go.
    const top = {
      ...design,
      text_snippets: [{ ...text!, left: 50, top: 5, width: 900, height: 40 }],
    };
    const s = newSticker(
      top,
      { kind: 'image', url: 'files/stickers/a.png', stickerType: 'plain', width: 512, height: 512 },
      'u1',
      'https://app',
    );
    expect(s.top).toBeGreaterThanOrEqual(45);
  });

  it('divides the fill scale of a large image by 2, 3, 4, 5 or 6', () => {
    expect([0.2, 0.25, 0.5, 0.6, 0.75, 0.9, 1, 3].map(largeImageDivisor)).toEqual([
      2, 3, 3, 4, 4, 5, 6, 6,
    ]);
    // 2000x1500 on 1000x750: fills at 0.5 → divided by 3
    expect(newStickerScale({ width: 2000, height: 1500 }, canvas)).toBeCloseTo(0.5 / 3, 9);
    // 960 wide is large: fill 1000/960 ≥ 1 → divided by 6
    expect(newStickerScale({ width: 960, height: 400 }, canvas)).toBeCloseTo(1000 / 960 / 6, 9);
    expect(newStickerScale({ width: 300, height: 200 }, canvas)).toBe(0.1);
  });

  it('takes 512 px, not the spec 000 §9 500, as the large height (docs/decisions.md)', () => {
    // The library's own 512 px stickers and the 910x512 screenshot get the spec's 0.1.
    expect(LARGE_IMAGE.height).toBe(STICKER_SIZE);
    expect(newStickerScale({ width: 512, height: 512 }, canvas)).toBe(0.1);
    expect(newStickerScale({ width: 910, height: 512 }, canvas)).toBe(0.1);
    expect(newStickerScale({ width: 505, height: 505 }, canvas)).toBe(0.1);
    // One pixel more is large: 1000x750 over 513 high fills at 750/513 ≥ 1 → divided by 6.
    expect(newStickerScale({ width: 400, height: 513 }, canvas)).toBeCloseTo(750 / 513 / 6, 9);
  });

  it('never draws a QR code under 60x60 and names dynamic parameters by prefix and counter', () => {
    const design = demoDocument();
    const qr = newSticker(design, { kind: 'dynamic', dynamicType: 'qrCode' }, 'q1', 'https://app');
    expect(qr.width * qr.scaleX).toBeGreaterThanOrEqual(60);
    expect(qr.dynamicStickerParamName).toBe('qrCode1');
    expect(qr.newQrDataUrl).toMatch(/^data:image\/svg\+xml/);
    const two = { ...design, graphics_data: [qr] };
    expect(dynamicStickerParamName(two, 'qrCode')).toBe('qrCode2');
    expect(dynamicStickerParamName(two, 'gravatar')).toBe('Gravatar1');
    expect(dynamicStickerParamName(two, 'hostedImage')).toBe('hostedIcon1');
    expect(dynamicStickerParamName(two, 'screenShot')).toBe('screenIcon1');
    const shot = newSticker(design, { kind: 'dynamic', dynamicType: 'screenShot' }, 's', 'x');
    expect([shot.width, shot.height, shot.scaleX]).toEqual([910, 512, 0.1]);
    const small = transformedSticker(qr, { left: 10, top: 10, scale: 0.01, angle: 0 }, canvas);
    expect(small.width * small.scaleX).toBe(60);
    const turned = transformedSticker(qr, { left: 10, top: 10, scale: 0.2, angle: -90 }, canvas);
    expect(turned.angle).toBe(270);
  });

  it('draws the QR code with its colour, margin and transparency', () => {
    const base = {
      dynamicStickerUrl: 'hello',
      qrCodeColor: '#ff0000',
      marginSize: 0,
      isTransparent: false,
    };
    const plain = svgOf(qrImageUrl(base, 'https://app'));
    expect(plain).toContain('fill="#ff0000"');
    expect(plain).toContain('fill="#ffffff"');
    const wide = svgOf(qrImageUrl({ ...base, marginSize: 4 }, 'https://app'));
    const side = (svg: string) => Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
    expect(side(wide) - side(plain)).toBe(8);
    expect(svgOf(qrImageUrl({ ...base, isTransparent: true }, 'x'))).not.toContain('#ffffff');
    // no value: the default value is encoded, not an empty code
    expect(qrImageUrl({ ...base, dynamicStickerUrl: '' }, 'https://app')).toBe(
      qrImageUrl({ ...base, dynamicStickerUrl: 'https://app' }, 'x'),
    );
  });
});

describe('dynamic stickers saved without the editor’s image', () => {
  it('are drawn from their fields: the QR code itself, or a placeholder', () => {
    const qr = StickerSchema.parse({
      uuid: 'q',
      stickerType: 'dynamicSticker',
      dynamicStickerType: 'qrCode',
      dynamicStickerUrl: 'hello',
      qrCodeColor: '#ff0000',
      left: 0,
      top: 0,
    });
    expect(svgOf(stickerImageUrl(qr)!)).toContain('fill="#ff0000"');
    const avatar = StickerSchema.parse({ ...qr, dynamicStickerType: 'gravatar' });
    expect(svgOf(stickerImageUrl(avatar)!)).toContain('>Gravatar</text>');
  });
});

describe('dynamic sticker fallbacks (spec 000 §5)', () => {
  it('checks e-mails, image URLs and URLs with the spec messages', () => {
    expect(fallbackProblem('gravatar', 'ana@example')).toBe(FALLBACK_MESSAGES.invalidEmail);
    expect(fallbackProblem('gravatar', 'ana@example.com')).toBeNull();
    expect(fallbackProblem('hostedImage', 'ftp://x.com/a.png')).toBe('Invalid URL');
    expect(fallbackProblem('hostedImage', 'https://x.com/a.webp')).toBe(
      'Image not found. We support jpg, jpeg, png, gif and svg',
    );
    expect(fallbackProblem('hostedImage', 'https://x.com/a.JPG')).toBeNull();
    expect(fallbackProblem('screenShot', 'example.com')).toBe('Invalid URL');
    expect(fallbackProblem('screenShot', 'https://example.com')).toBeNull();
    expect(fallbackProblem('qrCode', 'x'.repeat(256))).toBe(
      'Value may not be greater than 255 character!',
    );
    expect(fallbackProblem('qrCode', '')).toBeNull();
  });
});
