/**
 * The satori comparison (docs/performance.md "Method"): the reference scene as satori element
 * objects (no JSX), laid out and turned into SVG by satori, rasterised by @resvg/resvg-js and
 * encoded as JPEG by sharp, so its output is the same kind of file the renderer serves.
 *
 * Per render (all timed by the caller): the QR code's PNG data URL (the `qrcode` package, as our
 * renderer also makes a QR code per request), satori's layout and SVG, resvg's raster (which
 * decodes the embedded base photo), the PNG hand-off and sharp's JPEG encode. Made once, outside
 * the timing: the fitted base photo's data URL and the font data.
 */
import { Resvg } from '@resvg/resvg-js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import type { CSSProperties, ReactElement } from 'react';
import satori from 'satori';
import sharp from 'sharp';
import {
  CANVAS,
  JPEG_QUALITY,
  QR_COLOR,
  QR_SIDE_PX,
  REFERENCE_QR,
  REFERENCE_TEXTS,
  layerText,
  type ReferenceValues,
} from './reference.ts';

const require = createRequire(import.meta.url);

/** Satori reads TTF, OTF and WOFF, not WOFF2: the latin subsets of @fontsource/noto-sans. */
async function notoSans(weight: 400 | 700): Promise<ArrayBuffer> {
  const file = require.resolve(`@fontsource/noto-sans/files/noto-sans-latin-${weight}-normal.woff`);
  const bytes = await readFile(file);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** An element object as satori takes it (what JSX would produce). */
function el(
  type: 'div' | 'img',
  props: { style?: CSSProperties; src?: string; width?: number; height?: number },
  children?: string | ReactElement[],
): ReactElement {
  return { type, key: null, props: children === undefined ? props : { ...props, children } };
}

/** The QR code as a PNG data URL, no quiet zone (the sticker's default margin of 0). */
export function qrDataUrl(value: string): Promise<string> {
  return QRCode.toDataURL(value, {
    margin: 0,
    width: Math.round(QR_SIDE_PX),
    errorCorrectionLevel: 'M',
    color: { dark: QR_COLOR, light: '#ffffff' },
  });
}

export interface SatoriRenderer {
  /** Draws the reference scene for the values. @returns JPEG bytes, quality 86. */
  render(values: ReferenceValues): Promise<Buffer>;
}

/**
 * Prepares a satori renderer of the reference scene.
 * @param photo the base photo already fitted to the canvas (JPEG).
 */
export async function createSatoriRenderer(photo: Buffer): Promise<SatoriRenderer> {
  const background = `url(data:image/jpeg;base64,${photo.toString('base64')})`;
  const fonts = [
    {
      name: 'Noto Sans',
      data: await notoSans(400),
      weight: 400 as const,
      style: 'normal' as const,
    },
    {
      name: 'Noto Sans',
      data: await notoSans(700),
      weight: 700 as const,
      style: 'normal' as const,
    },
  ];

  const scene = (values: ReferenceValues, qr: string): ReactElement =>
    el(
      'div',
      {
        style: {
          display: 'flex',
          position: 'relative',
          width: CANVAS.width,
          height: CANVAS.height,
          backgroundImage: background,
          backgroundSize: `${CANVAS.width}px ${CANVAS.height}px`,
          fontFamily: 'Noto Sans',
        },
      },
      [
        el('img', {
          src: qr,
          width: Math.round(QR_SIDE_PX),
          height: Math.round(QR_SIDE_PX),
          style: { position: 'absolute', left: REFERENCE_QR.left, top: REFERENCE_QR.top },
        }),
        ...REFERENCE_TEXTS.map((t) =>
          el(
            'div',
            {
              style: {
                display: 'flex',
                position: 'absolute',
                left: t.left,
                top: t.top,
                width: t.width,
                justifyContent: t.textAlign === 'center' ? 'center' : 'flex-start',
                textAlign: t.textAlign,
                fontSize: t.fontSize,
                fontWeight: t.fontWeight === 'bold' ? 700 : 400,
                color: t.fill,
                WebkitTextStroke: `${t.strokeWidth}px ${t.stroke}`,
              },
            },
            layerText(t, values),
          ),
        ),
      ],
    );

  return {
    async render(values) {
      const qr = await qrDataUrl(values.qr_url);
      const svg = await satori(scene(values, qr), {
        width: CANVAS.width,
        height: CANVAS.height,
        fonts,
      });
      const png = new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
      return sharp(png).jpeg({ quality: JPEG_QUALITY }).toBuffer();
    },
  };
}
