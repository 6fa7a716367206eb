/**
 * The animated design of the render bench (docs/performance.md "Animated designs"): the
 * reference scene (test/bench/reference.ts) with one animated GIF sticker, rendered at its `.gif`
 * URL (docs/animated-designs.md). The sticker's file is made here with sharp: 20 frames of
 * 300x200 px panned across the reference photo (photographic detail, every frame different),
 * 100 ms each, so the output GIF has 20 frames, frame 1 the whole 1000x625 design and the
 * other 19 patches over the sticker's box.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { DesignDocumentSchema } from '#shared/design.ts';
import {
  PHOTO_PATH,
  REFERENCE_TEAM_ID,
  referenceDocument,
  type ReferenceValues,
} from './reference.ts';

/** The public render id: `/r/bench-animated.gif`. */
const ANIMATED_PUBLIC_ID = 'bench-animated';
/** The sticker's key in the assets bucket (a public `files/…` key, as uploads store them). */
const GIF_KEY = 'files/bench/bench-animated.gif';
/** The GIF sticker: its frames, their size (px) and delay (ms), and its box on the canvas. */
export const ANIMATED_STICKER = {
  frames: 20,
  width: 300,
  height: 200,
  delayMs: 100,
  left: 360,
  top: 300,
} as const;

/**
 * The sticker's GIF: frame `i` is the 300x200 window of the reference photo (1600x1000) at
 * (40·i, 20·i), so each frame differs everywhere, as a video clip's do.
 */
async function stickerGif(): Promise<Buffer> {
  const { frames, width, height, delayMs } = ANIMATED_STICKER;
  const photo = await sharp(PHOTO_PATH).toBuffer();
  const list = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp(photo)
        .extract({ left: 40 * i, top: 20 * i, width, height })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(list, { join: { animated: true } })
    .gif({ loop: 0, delay: list.map(() => delayMs) })
    .toBuffer();
}

/**
 * Stores the sticker's GIF in the local assets bucket and puts the animated design into the
 * table (call after `startLocalStack`, which sets the endpoints the clients read).
 */
export async function insertAnimatedDesign(): Promise<void> {
  const [{ db }, { s3Client }, { config }] = await Promise.all([
    import('#lib/db/index.ts'),
    import('#lib/clients.ts'),
    import('#lib/config.ts'),
  ]);
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config().ASSETS_BUCKET,
      Key: GIF_KEY,
      Body: await stickerGif(),
      ContentType: 'image/gif',
    }),
  );
  const reference = referenceDocument();
  const { width, height, left, top } = ANIMATED_STICKER;
  await db()
    .Design.put({
      designId: 'design-bench-animated',
      teamId: REFERENCE_TEAM_ID,
      publicId: ANIMATED_PUBLIC_ID,
      title: 'Benchmark animated design',
      status: 'active',
      version: 1,
      document: DesignDocumentSchema.parse({
        ...reference,
        graphics_data: [
          // Scale 1: the schema's default (0.1) would draw the sticker at 30x20 px.
          {
            uuid: 'gif-1',
            stickerType: 'upload',
            url: `/${GIF_KEY}`,
            left,
            top,
            width,
            height,
            scaleX: 1,
            scaleY: 1,
          },
          ...(reference.graphics_data ?? []),
        ],
      }),
    })
    .go();
}

/** The animated render's path and query for a set of values: `/r/bench-animated.gif?…`. */
export function animatedPath(values: ReferenceValues): string {
  return `/r/${ANIMATED_PUBLIC_ID}.gif?${new URLSearchParams(values).toString()}`;
}
