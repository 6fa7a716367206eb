/**
 * An animated GIF made of a complete first frame and patches (docs/performance.md "Countdown
 * timers"): sharp (libvips/cgif) encodes the first frame over the whole canvas, and the later
 * frames over the one rectangle where they change; this file joins the two encodes into one GIF,
 * placing the patches at the rectangle's offset. No pixel is encoded here: only the blocks of
 * sharp's two GIFs are copied, with the patches' positions moved and their colour table attached
 * to each patch frame when it differs from the first frame's.
 */

/** A GIF's parts as sharp wrote them (GIF89a, one logical screen). */
interface GifParts {
  width: number;
  height: number;
  /** The logical screen's packed byte, background index and aspect byte. */
  screen: Buffer;
  globalTable: Buffer;
  /** The application extensions (the loop count), as written. */
  applications: Buffer[];
  frames: Array<{ control: Buffer | undefined; descriptor: Buffer; table: Buffer; data: Buffer }>;
}

/** Bytes of a colour table whose packed-field size bits are `bits` (3 × 2^(bits+1)). */
const tableBytes = (bits: number): number => 3 * (1 << ((bits & 7) + 1));

/** The offset just past the data sub-blocks starting at `at` (a 0 length ends them). */
function skipSubBlocks(gif: Buffer, at: number): number {
  let i = at;
  // Each step moves forward by at least one byte: bounded by the buffer's length.
  while (i < gif.length && gif[i] !== 0) i += gif[i]! + 1;
  if (i >= gif.length) throw new Error('gif: truncated sub-blocks');
  return i + 1;
}

/**
 * Splits a GIF into its parts.
 * @throws Error when the bytes are not a whole GIF (never for sharp's own output).
 */
function parseGif(gif: Buffer): GifParts {
  if (gif.length < 14 || gif.toString('latin1', 0, 6) !== 'GIF89a')
    throw new Error('gif: not GIF89a');
  const packed = gif[10]!;
  let at = 13;
  const globalTable =
    packed & 0x80 ? gif.subarray(at, (at += tableBytes(packed))) : Buffer.alloc(0);
  const parts: GifParts = {
    width: gif.readUInt16LE(6),
    height: gif.readUInt16LE(8),
    screen: gif.subarray(10, 13),
    globalTable,
    applications: [],
    frames: [],
  };
  let control: Buffer | undefined;
  // Every block moves `at` forward: bounded by the buffer's length.
  while (at < gif.length) {
    const kind = gif[at]!;
    if (kind === 0x3b) return parts;
    if (kind === 0x21) {
      const end = skipSubBlocks(gif, at + 2);
      const block = gif.subarray(at, end);
      if (gif[at + 1] === 0xf9) control = block;
      else if (gif[at + 1] === 0xff) parts.applications.push(block);
      at = end;
    } else if (kind === 0x2c) {
      const descriptor = gif.subarray(at, at + 10);
      const local = gif[at + 9]!;
      const tableEnd = at + 10 + (local & 0x80 ? tableBytes(local) : 0);
      const end = skipSubBlocks(gif, tableEnd + 1);
      parts.frames.push({
        control,
        descriptor,
        table: gif.subarray(at + 10, tableEnd),
        data: gif.subarray(tableEnd, end),
      });
      control = undefined;
      at = end;
    } else throw new Error(`gif: unknown block 0x${kind.toString(16)}`);
  }
  throw new Error('gif: no trailer');
}

/** A graphic control extension: do not dispose, no transparency, `delayCs` hundredths of a s. */
function plainControl(delayCs: number): Buffer {
  const block = Buffer.from([0x21, 0xf9, 0x04, 0x04, 0, 0, 0, 0]);
  block.writeUInt16LE(delayCs, 4);
  return block;
}

/** The NETSCAPE2.0 loop block, looping forever. */
const LOOP_FOREVER = Buffer.concat([
  Buffer.from([0x21, 0xff, 0x0b]),
  Buffer.from('NETSCAPE2.0', 'latin1'),
  Buffer.from([0x03, 0x01, 0x00, 0x00, 0x00]),
]);

/**
 * A GIF of `width` × `height` px holding only `gif`'s colour table (and one pixel of its first
 * colour): given to sharp as the first frame of an encode with `reuse`, it makes libvips map
 * every frame to that palette instead of building one (docs/performance.md "Countdown timers").
 * @param gif a GIF with a global colour table (sharp's output).
 * @throws Error when `gif` is not a whole GIF or has no global colour table.
 */
export function paletteCarrier(gif: Buffer, width: number, height: number): Buffer {
  const parts = parseGif(gif);
  if (parts.globalTable.length === 0) throw new Error('gif: no global colour table');
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  parts.screen.copy(screen, 4);
  const bits = (parts.screen[0]! & 0x07) + 1;
  const minCode = Math.max(2, bits);
  // LZW of one pixel of index 0: the clear code, 0, the end code, each minCode + 1 bits wide.
  const clear = 1 << minCode;
  const packed = clear | (0 << (minCode + 1)) | ((clear + 1) * 2 ** (2 * (minCode + 1)));
  const codeBytes = Math.ceil((3 * (minCode + 1)) / 8);
  const data = Buffer.alloc(codeBytes);
  for (let i = 0; i < codeBytes; i++) data[i] = Math.floor(packed / 2 ** (8 * i)) & 0xff;
  const descriptor = Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    screen,
    parts.globalTable,
    descriptor,
    Buffer.from([minCode, codeBytes]),
    data,
    Buffer.from([0, 0x3b]),
  ]);
}

/**
 * One animated GIF: `first` (a one-frame GIF of the whole canvas) shown for `firstDelayMs`, then
 * the frames of `patches` past its first `skip`, placed at `offset` on the canvas. The last
 * skipped frame of `patches` must show what `first` shows inside the patch rectangle: the later
 * patches were encoded against it (cgif leaves unchanged pixels transparent).
 * @param first sharp's GIF of the complete first frame, `width` × `height` px.
 * @param patches sharp's animated GIF of the patch rectangle (its frames' delays are kept).
 * @param offset the patch rectangle's top-left corner on the canvas, px.
 * @param skip how many leading frames of `patches` stand for the first frame (at least 1).
 * @returns the GIF bytes: 1 + the patches' frames past `skip`, looping forever.
 * @throws Error when either input is not a whole GIF, or the patches do not fit the canvas.
 */
export function joinPatches(
  first: Buffer,
  patches: Buffer,
  offset: { left: number; top: number },
  firstDelayMs: number,
  skip = 1,
): Buffer {
  const whole = parseGif(first);
  const patch = parseGif(patches);
  const head = whole.frames[0];
  if (!head) throw new Error('gif: the first frame is missing');
  if (
    offset.left < 0 ||
    offset.top < 0 ||
    offset.left + patch.width > whole.width ||
    offset.top + patch.height > whole.height
  )
    throw new Error('gif: the patches do not fit the canvas');
  const sameTable = patch.globalTable.equals(whole.globalTable);
  const out: Buffer[] = [Buffer.from(first.subarray(0, 13)), whole.globalTable, LOOP_FOREVER];
  out.push(plainControl(Math.round(firstDelayMs / 10)), head.descriptor, head.table, head.data);
  for (const frame of patch.frames.slice(skip)) {
    const descriptor = Buffer.from(frame.descriptor);
    descriptor.writeUInt16LE(descriptor.readUInt16LE(1) + offset.left, 1);
    descriptor.writeUInt16LE(descriptor.readUInt16LE(3) + offset.top, 3);
    let table = frame.table;
    if (table.length === 0 && !sameTable && patch.globalTable.length > 0) {
      // The patches' own palette, as this frame's local table (same size bits).
      descriptor[9] = (descriptor[9]! & ~0x07) | 0x80 | (patch.screen[0]! & 0x07);
      table = patch.globalTable;
    }
    if (frame.control) out.push(frame.control);
    out.push(descriptor, table, frame.data);
  }
  out.push(Buffer.from([0x3b]));
  return Buffer.concat(out);
}
