import { describe, expect, it } from 'vitest';
import { restoreDesign } from '#shared/design.ts';
import {
  baseImageScalingWidth,
  LEGACY_SCALING_BEFORE,
  placeBasePhoto,
} from '#shared/scene/resolve.ts';

/** A stored document of the old system, dated as the docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" design fields are. */
const legacyDocument = (dates: Record<string, unknown>) => ({
  image_id: 'library-autumn',
  base_image_key: 'library/global/autumn.jpg',
  canvas_width: 900,
  canvas_height: 600,
  ...dates,
});

describe('base image scaling (spec 000 §9: width 500 before 2018-02-24, otherwise 1000)', () => {
  it('scales designs of 2018-02-23 to 500 px and designs of 2018-02-24 to 1000 px', () => {
    expect(LEGACY_SCALING_BEFORE).toBe('2018-02-24');
    expect(baseImageScalingWidth('2018-02-23')).toBe(500);
    expect(baseImageScalingWidth('2018-02-23 23:59:59')).toBe(500);
    expect(baseImageScalingWidth('2018-02-23T23:59:59+05:00')).toBe(500);
    expect(baseImageScalingWidth('2016-01-01T00:00:00Z')).toBe(500);
    expect(baseImageScalingWidth('2018-02-24')).toBe(1000);
    expect(baseImageScalingWidth('2018-02-24 00:00:00')).toBe(1000);
    expect(baseImageScalingWidth('2026-11-24T12:00:00Z')).toBe(1000);
  });

  it('reads a Date by its UTC day and treats unknown dates as current designs', () => {
    expect(baseImageScalingWidth(new Date('2018-02-23T23:59:59.999Z'))).toBe(500);
    expect(baseImageScalingWidth(new Date('2018-02-24T00:00:00Z'))).toBe(1000);
    for (const unknown of [null, undefined, '', 'yesterday', new Date('nope')])
      expect(baseImageScalingWidth(unknown)).toBe(1000);
  });
});

describe('restoreDesign keeps the look of imported old designs', () => {
  it('marks a design updated 2018-02-23 as legacy (500 px) and says so once', () => {
    const { document, repaired } = restoreDesign(
      legacyDocument({ created_at: '2017-05-01 10:00:00', updated_at: '2018-02-23 18:30:00' }),
    );
    expect(document.legacy_base_image_width).toBe(500);
    expect(repaired).toEqual([
      'base photo drawn 500 px wide: last saved 2018-02-23 18:30:00, before 2018-02-24 (spec 000 §9)',
    ]);
    expect(restoreDesign(document)).toEqual({ document, repaired: [] });
  });

  it('leaves a design updated 2018-02-24 covering the canvas, even if created before', () => {
    const { document, repaired } = restoreDesign(
      legacyDocument({ created_at: '2017-05-01 10:00:00', updated_at: '2018-02-24 00:00:00' }),
    );
    expect(document.legacy_base_image_width).toBe(null);
    expect(repaired).toEqual([]);
  });

  it('falls back to created_at (2018-02-23 vs 2018-02-24) when updated_at is missing', () => {
    expect(
      restoreDesign(legacyDocument({ created_at: '2018-02-23' })).document.legacy_base_image_width,
    ).toBe(500);
    expect(
      restoreDesign(legacyDocument({ created_at: '2018-02-24' })).document.legacy_base_image_width,
    ).toBe(null);
  });

  it('never turns a current document legacy: no dates, or the field already decided', () => {
    expect(restoreDesign(legacyDocument({})).document.legacy_base_image_width).toBe(null);
    const decided = legacyDocument({ legacy_base_image_width: null, updated_at: '2018-02-01' });
    expect(restoreDesign(decided).document.legacy_base_image_width).toBe(null);
  });
});

describe('placeBasePhoto: where editor and render draw the photo', () => {
  const photo = { width: 2000, height: 1000 };
  const canvas = { width: 900, height: 600 };

  it('covers the canvas, centre-cropped, for current designs', () => {
    expect(placeBasePhoto(photo, canvas, 0, null)).toEqual({
      fit: { width: 900, height: 600, crop: { left: 250, top: 0, width: 1500, height: 1000 } },
      left: 450,
      top: 300,
    });
  });

  it('covers the turned canvas after a quarter turn', () => {
    const placed = placeBasePhoto(photo, canvas, 90, null);
    expect([placed.fit.width, placed.fit.height]).toEqual([600, 900]);
    // 600x900 before the turn: scale 0.9, a 666.7 px wide centre strip of the photo.
    expect(placed.fit.crop.left).toBeCloseTo(2000 / 3);
    expect(placed.fit.crop.width).toBeCloseTo(2000 / 3);
    expect([placed.fit.crop.top, placed.fit.crop.height]).toEqual([0, 1000]);
    expect([placed.left, placed.top]).toEqual([450, 300]);
  });

  it('draws a legacy photo 500 px wide, uncropped, at the top left', () => {
    expect(placeBasePhoto(photo, canvas, 0, 500)).toEqual({
      fit: { width: 500, height: 250, crop: { left: 0, top: 0, width: 2000, height: 1000 } },
      left: 250,
      top: 125,
    });
    const turned = placeBasePhoto(photo, canvas, 270, 500);
    expect([turned.fit.width, turned.fit.height, turned.left, turned.top]).toEqual([
      500, 250, 125, 250,
    ]);
  });
});
