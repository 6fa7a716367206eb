/**
 * Importing a sticker pack in the kiosk (docs/kiosk.md "Sticker packs": "Kiosk (packs)" `POST
 * /packs/download`; docs/kiosk.md "Sticker packs"): a real zip built here with fflate becomes a
 * pack whose stickers every user finds in the library and a render draws; hostile archives
 * (zip-slip paths, too many entries, oversized or bomb entries, SVGs with script or outside
 * references, no manifest, a disguised file) are refused with their message and write nothing.
 *
 * Mutation checks (run): with the `isSafeEntryName` check removed from pack-import.ts's filter
 * the three path cases fail; with `svgRefusal` removed from `packStickerImage`
 * (functions/stickers/kiosk-packs.ts) the script and outside-reference cases fail.
 */
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { strToU8, zipSync, type Zippable } from 'fflate';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.ts';
import { signedIn } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

let admin: TestClient;
let demo: TestClient;
beforeAll(async () => {
  admin = await signedIn(stack().url, 'admin@example.com');
  demo = await signedIn(stack().url, 'demo@example.com');
});

/** A 100 px SVG circle of `fill` (hex). */
const circle = (fill: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><circle cx="50" cy="50" r="50" fill="${fill}"/></svg>`;

/** A `size` px square PNG of `colour`. */
const square = (colour: string, size = 64) =>
  sharp({ create: { width: size, height: size, channels: 4, background: colour } })
    .png()
    .toBuffer();

/** The multipart body of an import. */
function archiveForm(zip: Uint8Array, name = 'pack.zip'): FormData {
  const form = new FormData();
  form.append('archive', new Blob([Uint8Array.from(zip)], { type: 'application/zip' }), name);
  return form;
}

/** A zip of the files given (text as UTF-8) plus `manifest` as manifest.json when given. */
function zipOf(files: Record<string, string | Uint8Array>, manifest?: unknown): Uint8Array {
  const entries: Zippable = {};
  for (const [name, content] of Object.entries(files)) {
    entries[name] = typeof content === 'string' ? strToU8(content) : content;
  }
  if (manifest !== undefined) entries['manifest.json'] = strToU8(JSON.stringify(manifest));
  return zipSync(entries, { level: 6 });
}

/** Keys the assets bucket holds under a prefix. */
async function storedKeys(prefix: string): Promise<string[]> {
  const { s3Client } = await import('#lib/clients.ts');
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const res = await s3Client().send(
      new ListObjectsV2Command({
        Bucket: process.env.ASSETS_BUCKET,
        Prefix: prefix,
        ContinuationToken: token,
      }),
    );
    keys.push(...(res.Contents ?? []).map((o) => o.Key!));
    token = res.IsTruncated ? res.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

interface KioskPack {
  id: string;
  pack_name: string;
  cover_image: string;
  sticker_count: number;
  status: string;
  position: number;
}

async function kioskPacks(): Promise<KioskPack[]> {
  const res = await admin.request('GET', '/packs/getPacks');
  expect(res.status).toBe(200);
  return (res.json as { data: KioskPack[] }).data;
}

/** The red, green and blue pixel at the centre of a served PNG, and its size. */
async function centreOf(path: string) {
  const res = await fetch(`${stack().url}${path}`);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = ((info.height >> 1) * info.width + (info.width >> 1)) * info.channels;
  return { rgb: [...data.subarray(at, at + 3)], width: info.width, height: info.height };
}

describe('importing a pack (POST /packs/download)', () => {
  it('imports a zip of SVG and PNG stickers that every user then finds in the library', async () => {
    const zip = zipOf(
      {
        'icons/sun.svg': circle('#ffcc00'),
        'icons/sea.svg': circle('#0044ff'),
        'leaf.png': await square('#00aa33'),
        '__MACOSX/._sun.svg': 'not named by the manifest, so not imported',
      },
      {
        name: 'Summer Days',
        attribution: 'Drawn for the test, CC0',
        cover: 'icons/sea.svg',
        stickers: [
          { file: 'icons/sun.svg', name: 'Sun', tags: ['Hot', ' beach '] },
          { file: 'icons/sea.svg', name: 'Sea', tags: ['water'] },
          { file: 'leaf.png', name: 'Leaf' },
        ],
      },
    );
    const res = await admin.request('POST', '/packs/download', archiveForm(zip));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({
      success: true,
      message: 'The pack was successfully imported.',
      pack: { pack_name: 'Summer Days', sticker_count: 3, status: 'active' },
    });
    const pack = (res.json as { pack: KioskPack }).pack;

    // The kiosk lists it last; the cover is the sea.
    const packs = await kioskPacks();
    expect(packs.at(-1)).toEqual(pack);
    expect(pack.position).toBe(Math.max(...packs.slice(0, -1).map((p) => p.position)) + 1);
    const cover = await centreOf(pack.cover_image);
    expect(cover.rgb[2]).toBeGreaterThan(200);

    // A user sees the pack and its stickers in order, drawn 512 px.
    const library = await demo.request('POST', '/getStickers', {});
    expect((library.json as { data: Array<{ id: string }> }).data.map((p) => p.id)).toContain(
      pack.id,
    );
    const drill = await demo.request('POST', '/getPacksStickers', { id: pack.id });
    expect(drill.status).toBe(200);
    const stickers = (drill.json as { data: Array<{ name: string; icon_url: string }> }).data;
    expect(stickers.map((s) => s.name)).toEqual(['Sun', 'Sea', 'Leaf']);
    const sun = await centreOf(stickers[0]!.icon_url);
    expect(sun).toMatchObject({ width: 512, height: 512 });
    expect(sun.rgb[0]).toBeGreaterThan(200);
    expect(sun.rgb[2]).toBeLessThan(60);
    const leaf = await centreOf(stickers[2]!.icon_url);
    expect(leaf.rgb[1]).toBeGreaterThan(140);

    // Tags are search words: "beach" finds the sun.
    const found = await demo.request('POST', '/getStickers', { search: 'beach' });
    expect((found.json as { data: Array<{ name?: string }> }).data.map((i) => i.name)).toEqual([
      'Sun',
    ]);

    // Importing it again is refused: one pack per name.
    const again = await admin.request('POST', '/packs/download', archiveForm(zip));
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('A pack named "Summer Days" already exists.');
  });

  it('is for platform admins only', async () => {
    const zip = zipOf(
      { 'a.svg': circle('#123456') },
      {
        name: 'Not yours',
        attribution: 'x',
        stickers: [{ file: 'a.svg', name: 'A' }],
      },
    );
    expect((await demo.request('POST', '/packs/download', archiveForm(zip))).status).toBe(403);
  });
});

describe('hostile archives', () => {
  const okManifest = (file: string) => ({
    name: `Pack of ${file}`,
    attribution: 'test',
    stickers: [{ file, name: 'One' }],
  });
  const ok = circle('#aa0000');
  // 3 MiB of zeros deflates to about 3 KiB: declared size over the 2 MiB limit.
  const bomb = new Uint8Array(3 * 1024 * 1024);
  const cases: Array<[string, () => Promise<Uint8Array> | Uint8Array, string]> = [
    [
      'a path that climbs out (zip-slip)',
      () => zipOf({ '../evil.svg': ok }, okManifest('../evil.svg')),
      'The archive holds a file with an unsafe path: "../evil.svg".',
    ],
    [
      'an absolute path, even one the manifest does not name',
      () => zipOf({ 'a.svg': ok, '/etc/cron.d/x.svg': ok }, okManifest('a.svg')),
      'The archive holds a file with an unsafe path: "/etc/cron.d/x.svg".',
    ],
    [
      'a backslash path',
      () => zipOf({ 'a.svg': ok, '..\\x.svg': ok }, okManifest('a.svg')),
      'The archive holds a file with an unsafe path: "..\\x.svg".',
    ],
    [
      'too many entries',
      () =>
        zipOf(
          Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`s${i}.svg`, ok])),
          okManifest('s0.svg'),
        ),
      'The archive may hold at most 300 files.',
    ],
    [
      'an entry that unpacks past 2 MB (a zip bomb)',
      () => zipOf({ 'a.svg': ok, 'big.png': bomb }, okManifest('a.svg')),
      'big.png may not be greater than 2 MB unpacked.',
    ],
    [
      'entries that unpack past 64 MB together',
      () =>
        zipOf(
          Object.fromEntries(
            Array.from({ length: 34 }, (_, i) => [`f${i}.png`, new Uint8Array(2_000_000)]),
          ),
          okManifest('f0.png'),
        ),
      'Unpacked, the archive may not be greater than 64 MB.',
    ],
    [
      'an SVG with a script',
      () =>
        zipOf(
          {
            'x.svg':
              '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
          },
          okManifest('x.svg'),
        ),
      'x.svg was refused: an SVG may not hold scripts, embedded files, outside references or a DOCTYPE.',
    ],
    [
      'an SVG that reaches outside the file',
      () =>
        zipOf(
          {
            'x.svg':
              '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
          },
          okManifest('x.svg'),
        ),
      'x.svg was refused: an SVG may not hold scripts, embedded files, outside references or a DOCTYPE.',
    ],
    [
      'an SVG that embeds a raster',
      () =>
        zipOf(
          {
            'x.svg':
              '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/></svg>',
          },
          okManifest('x.svg'),
        ),
      'x.svg was refused: an SVG may not hold scripts, embedded files, outside references or a DOCTYPE.',
    ],
    [
      'an SVG named .png (the upload checks read the bytes)',
      () => zipOf({ 'logo.png': ok }, okManifest('logo.png')),
      'logo.png could not be read as an image.',
    ],
    [
      'no manifest',
      () => zipOf({ 'a.svg': ok }),
      'The archive has no manifest.json at its top level.',
    ],
    [
      'a manifest naming a file the archive lacks',
      () => zipOf({ 'a.svg': ok }, okManifest('b.svg')),
      'manifest.json names b.svg, which the archive does not hold.',
    ],
    [
      'a manifest without stickers',
      () => zipOf({ 'a.svg': ok }, { name: 'Empty', attribution: 'x', stickers: [] }),
      'manifest.json: The manifest needs at least one sticker.',
    ],
    [
      'bytes that are not a zip',
      () => strToU8('PK but not really'),
      'The archive is not a readable zip file.',
    ],
    [
      'an archive over 8 MB',
      () => zipOf({ 'noise.bin': randomBytes(9 * 1024 * 1024) }),
      'The archive may not be greater than 8 MB.',
    ],
  ];

  it.each(cases)(
    'refuses %s with its message and writes nothing',
    async (_label, make, message) => {
      const keys = await storedKeys('files/stickers/');
      const packs = await kioskPacks();
      const res = await admin.request('POST', '/packs/download', archiveForm(await make()));
      expect(res.status, JSON.stringify(res.json)).toBe(422);
      expect(res.json.message).toBe(message);
      expect(res.json.errors).toEqual({ archive: [message] });
      expect(await kioskPacks()).toEqual(packs);
      expect(await storedKeys('files/stickers/')).toEqual(keys);
    },
  );

  it('refuses a request without an archive', async () => {
    const res = await admin.request('POST', '/packs/download', new FormData());
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('Choose a zip archive to upload.');
  });
});
