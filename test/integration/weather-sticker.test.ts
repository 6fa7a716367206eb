/**
 * The weather sticker through the local stack (docs/weather.md "The weather sticker"): the
 * recorded answers (offline, the local default) draw each recipient's temperature in the
 * sticker's unit with the place's name (read back by OCR), kept no longer than the forecasts
 * are; an unknown place draws the fallback text;
 * the reader's place makes the answer the reader's own; the budgets come first.
 * an `auto` unit follows the reader's country;
 * `saveGeneratedDynamicSticker` adds one with its 400x200 box and its settings.
 */
import sharp from 'sharp';
import type { Worker } from 'tesseract.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VIEWER_COUNTRY_HEADER,
  VIEWER_LATITUDE_HEADER,
  VIEWER_LONGITUDE_HEADER,
} from '#functions/render/rule-context.ts';
import { WEATHER_STICKER_CACHE_S } from '#functions/render/open-time.ts';
import { WeatherStickerSchema, weatherLayers } from '#shared/scene/weather-sticker.ts';
import {
  createDesign,
  currentTeamId,
  demoDesignCopyIn,
  ownTeam,
  signedIn,
  uniqueEmail,
} from '../support/designs.ts';
import { lineReader, readWhiteText } from '../support/ocr.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack();
let ocr: Worker;

beforeAll(async () => {
  ocr = await lineReader();
});

afterAll(async () => {
  await ocr?.terminate();
});

/** The sticker's place and settings: white text on a dark panel, for the OCR. */
const AT = { left: 100, top: 150, width: 400, height: 200, scaleX: 1, scaleY: 1 };
const SETTINGS = {
  fill: '#ffffff',
  panel_fill: '#20242e',
  fallback_text: 'Sunny thoughts',
};

/** A design of its own team with a weather sticker for `{{city}}` (fallback: none). */
async function weatherDesign(weather: Record<string, unknown> = {}) {
  const owner = await ownTeam(stack().url, uniqueEmail('weather-sticker'));
  const design = await demoDesignCopyIn(await currentTeamId(owner));
  const saved = await owner.request('PUT', `/api/pic-snippet/${design.designId}`, {
    version: 1,
    text_snippets: [],
    graphics_data: [
      {
        uuid: 'weather-1',
        stickerType: 'dynamicSticker',
        dynamicStickerType: 'weather',
        dynamicStickerParamName: 'city',
        dynamicStickerUrl: '',
        ...AT,
        weather: { ...SETTINGS, ...weather },
      },
    ],
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return design;
}

/** Where the shared layout draws a text layer `id` (`t` temperature, `p` place, `fallback`). */
function textBox(id: string, report: Parameters<typeof weatherLayers>[2]) {
  const settings = WeatherStickerSchema.parse(SETTINGS);
  const box = { id: 'w', left: AT.left, top: AT.top, width: 400, height: 200, scale: 1 };
  const text = weatherLayers(settings, box, report).texts.find((t) => t.id === `w:${id}`)!;
  return {
    left: Math.floor(text.left) - 4,
    top: Math.floor(text.top) - 4,
    width: Math.ceil(text.width) + 8,
    height: Math.ceil(text.fontSize * 1.3) + 8,
  };
}

async function open(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack().url}${path}`, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

describe('the weather sticker', () => {
  it('draws the recipient’s temperature and place, kept as long as the forecast', async () => {
    const design = await weatherDesign();
    const paris = await open(`${design.render}.png?city=Paris`);
    expect(paris.res.status).toBe(200);
    expect(paris.res.headers.get('cache-control')).toBe(
      `public, max-age=${WEATHER_STICKER_CACHE_S}`,
    );
    const rain = { sky: 'rain' as const, temperatureC: 11.4, place: 'Paris' };
    expect(await readWhiteText(ocr, paris.body, 0, textBox('t', rain))).toContain('11°C');
    expect(await readWhiteText(ocr, paris.body, 0, textBox('p', rain))).toContain('Paris');
    // The postcode of the same place: the same weather drawn.
    const postcode = await open(`${design.render}.png?city=75001`);
    expect(postcode.body.equals(paris.body)).toBe(true);
    // The same place again: from the render cache.
    const again = await open(`${design.render}.png?city=Paris`);
    expect(again.res.headers.get('x-render-cache')).not.toBe('miss');
    // Oslo in °F.
    const fahrenheit = await weatherDesign({ unit: 'f' });
    const oslo = await open(`${fahrenheit.render}.png?city=Oslo`);
    const snow = { sky: 'snow' as const, temperatureC: -3.2, place: 'Oslo' };
    expect(await readWhiteText(ocr, oslo.body, 0, textBox('t', snow))).toContain('26°F');
  });

  it('draws the fallback text for a place nobody knows, and nothing without one', async () => {
    const design = await weatherDesign();
    const atlantis = await open(`${design.render}.png?city=Atlantis`);
    expect(atlantis.res.status).toBe(200);
    expect(await readWhiteText(ocr, atlantis.body, 0, textBox('fallback', null))).toContain(
      'Sunny thoughts',
    );
    const quiet = await weatherDesign({ fallback_text: '' });
    const nothing = await open(`${quiet.render}.png?city=Atlantis`);
    const plain = await open(`${quiet.render}.png`);
    // No place at all and an unknown place draw the same: the photo alone under the sticker.
    const a = await sharp(nothing.body).raw().toBuffer();
    const b = await sharp(plain.body).raw().toBuffer();
    expect(a.equals(b)).toBe(true);
  });

  it('reads the reader’s place when allowed, and never lets the CDN share that answer', async () => {
    const design = await weatherDesign({ use_viewer_place: true });
    const reader = await open(`${design.render}.png`, {
      [VIEWER_LATITUDE_HEADER]: '59.9127',
      [VIEWER_LONGITUDE_HEADER]: '10.7461',
    });
    expect(reader.res.headers.get('cache-control')).toBe('private, no-cache');
    const snow = { sky: 'snow' as const, temperatureC: -3.2 };
    expect(await readWhiteText(ocr, reader.body, 0, textBox('t', snow))).toContain('-3°C');
    // A place in the URL wins over the reader's, and is shared again.
    const named = await open(`${design.render}.png?city=Madrid`, {
      [VIEWER_LATITUDE_HEADER]: '59.9127',
      [VIEWER_LONGITUDE_HEADER]: '10.7461',
    });
    expect(named.res.headers.get('cache-control')).toBe(
      `public, max-age=${WEATHER_STICKER_CACHE_S}`,
    );
  });

  it('shows °F to readers in the United States and °C elsewhere when its unit is auto', async () => {
    const design = await weatherDesign({ unit: 'auto' });
    const snow = { sky: 'snow' as const, temperatureC: -3.2, place: 'Oslo' };
    const us = await open(`${design.render}.png?city=Oslo`, { [VIEWER_COUNTRY_HEADER]: 'US' });
    expect(us.res.status).toBe(200);
    // The country is not in the CDN's key: the answer is the reader's own.
    expect(us.res.headers.get('cache-control')).toBe('private, no-cache');
    expect(await readWhiteText(ocr, us.body, 0, textBox('t', snow))).toContain('26°F');
    const de = await open(`${design.render}.png?city=Oslo`, { [VIEWER_COUNTRY_HEADER]: 'DE' });
    expect(await readWhiteText(ocr, de.body, 0, textBox('t', snow))).toContain('-3°C');
    const unknown = await open(`${design.render}.png?city=Oslo`);
    expect(unknown.body.equals(de.body)).toBe(true);
  });

  it('is added through saveGeneratedDynamicSticker with its box and settings', async () => {
    const demo = await signedIn(stack().url, 'demo@example.com');
    const design = await createDesign(demo);
    const base = `/api/pic-snippet/${design.id}`;
    const saved = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: { uuid: 'weather-new', dynamicStickerType: 'weather' },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const sticker = (saved.json.data as { currentSticker: Record<string, unknown> }).currentSticker;
    expect(sticker).toMatchObject({
      dynamicStickerType: 'weather',
      dynamicStickerParamName: 'weather1',
      width: 400,
      height: 200,
      weather: { unit: 'c', show_place: true },
    });
    expect(sticker.scaleX).toBeLessThanOrEqual(1);

    const changed = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: { uuid: 'weather-new', dynamicStickerType: 'weather', weather: { unit: 'f' } },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    const stored = (await demo.request('GET', base)).json.graphics_data as Array<
      Record<string, unknown>
    >;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.weather).toMatchObject({ unit: 'f' });

    const bad = await demo.request('POST', `${base}/saveGeneratedDynamicSticker`, {
      sticker: { uuid: 'weather-new', dynamicStickerType: 'weather', weather: { unit: 'k' } },
    });
    expect(bad.status).toBe(422);
  });
});
