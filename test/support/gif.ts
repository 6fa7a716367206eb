/**
 * Animated GIF fixtures made by sharp (libvips' GIF encoder) for the GIF tests
 * (docs/editor.md "Animated GIF stickers"; docs/adr/0059-gif-playback.md "GIF playback").
 */
import sharp from 'sharp';

/**
 * An animated GIF of `count` solid frames cycling through `colours` (CSS colours), `width` x
 * `height` px, looping, with `delayMs` per frame (one number for all, or one per frame).
 */
export async function solidGif(
  colours: string[],
  {
    count = colours.length,
    width,
    height,
    delayMs = 100,
  }: {
    count?: number;
    width: number;
    height: number;
    delayMs?: number | number[];
  },
): Promise<Buffer> {
  const frames = await Promise.all(
    colours.map((background) =>
      sharp({ create: { width, height, channels: 3, background } })
        .png()
        .toBuffer(),
    ),
  );
  const list = Array.from({ length: count }, (_, i) => frames[i % frames.length]!);
  const delay = Array.isArray(delayMs) ? delayMs : list.map(() => delayMs);
  return sharp(list, { join: { animated: true } })
    .gif({ loop: 0, delay })
    .toBuffer();
}

/** RGB of frame `n` (0-based) of a GIF at its centre, as sharp decodes it. */
export async function frameCentre(gif: Buffer, n: number): Promise<number[]> {
  const { data, info } = await sharp(gif, { page: n }).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}
