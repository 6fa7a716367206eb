/**
 * Seeds the sticker library with real packs from well-licensed npm icon and emoji sets, with
 * their licence files (docs/adr/0021-sticker-library.md "Sticker library"):
 *
 * | pack              | artwork (npm devDependency)  | licence of the artwork      |
 * |-------------------|------------------------------|-----------------------------|
 * | Celebration       | `@twemoji/svg`               | CC BY 4.0 (Twemoji)         |
 * | Food & Drink      | `openmoji`                   | CC BY-SA 4.0 (OpenMoji)     |
 * | Shopping          | `@tabler/icons` (outline)    | MIT (Tabler Icons)          |
 * | Arrows & Badges   | `@tabler/icons` (filled)     | MIT (Tabler Icons)          |
 *
 * Each licence, with its attribution, is in `infra/seed/stickers/{pack}/LICENSE`. Emoji names and
 * search words are the Unicode CLDR annotations as `openmoji`'s `data/openmoji.json` ships them;
 * Tabler's come from its `icons.json`.
 *
 * Every SVG is rasterised with sharp to a 512 px PNG (docs/security.md "Render limits") and stored
 * under `files/stickers/{packId}/` in the assets bucket (served at `/files/*`), with a content hash
 * in the key: a changed picture gets a new key, so designs that use the old one keep drawing it.
 * Fast on a re-run: a pack whose stored `seedVersion` matches is skipped, files already in the
 * bucket are not sent again, and rasterised PNGs are cached on disk under
 * `node_modules/.cache/picsnippets/stickers/` (each test file starts an empty stack).
 *
 * Local only, like the rest of the seed (infra/local/seed.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#lib/clients.ts';
import { config } from '#lib/config.ts';
import { listObjects } from '#lib/s3-list.ts';
import { db } from '#lib/db/index.ts';
import { STICKER_SIZE, stickerFromSvg, type StickerPng } from '#functions/stickers/images.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** The most sticker images a listing reads before it gives up (far above what the seed writes). */
const MAX_LISTED = 50_000;

/** An installed package's folder (their `exports` hide package.json and the SVGs from require). */
const packageDir = (name: string) => join(ROOT, 'node_modules', name);
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'picsnippets', 'stickers');
/** Bump when the rasterising changes, so cached PNGs are made again. */
const RASTER_VERSION = '1';
/** Bump when what is stored for a pack changes, so seeded data is redone. */
const LAYOUT_VERSION = '2';

type Source =
  | { kind: 'twemoji'; hexcodes: string[] }
  | { kind: 'openmoji'; hexcodes: string[] }
  | { kind: 'tabler'; style: 'outline' | 'filled'; colour: string; names: string[] };

/** A pack to seed: its id, name, artwork and where its licence file is. */
export interface SeedPack {
  packId: string;
  name: string;
  /** Folder under infra/seed/stickers/ holding the LICENSE. */
  licenceDir: string;
  attribution: string;
  source: Source;
  /** Index of the sticker whose image is the pack's cover image. */
  cover: number;
}

/** The seeded packs, in library order. */
export const SEED_PACKS: SeedPack[] = [
  {
    packId: 'pack-celebration',
    name: 'Celebration',
    licenceDir: 'celebration',
    attribution: 'Twemoji by Twitter, Inc and other contributors, CC BY 4.0',
    cover: 0,
    source: {
      kind: 'twemoji',
      hexcodes: (
        '1F389 1F38A 1F388 1F381 1F382 1F370 1F9C1 1F942 1F37E 1F386 1F387 2728 1F31F 2B50 ' +
        '1F973 1F60D 1F602 1F929 1F618 1F970 2764 1F496 1F495 1F49D 1F48C 1F490 1F339 1F337 ' +
        '1F33B 1F380 1F3C6 1F947 1F3C5 1F451 1F48D 1F384 1F385 1F383 1F44F 1F64C 1F44D 1F525 ' +
        '1F4AF 1F38F 1F36D'
      ).split(' '),
    },
  },
  {
    packId: 'pack-food-drink',
    name: 'Food & Drink',
    licenceDir: 'food-drink',
    attribution: 'OpenMoji (openmoji.org), CC BY-SA 4.0',
    cover: 0,
    source: {
      kind: 'openmoji',
      hexcodes: (
        '1F355 1F354 1F35F 1F32D 1F32E 1F363 1F35C 1F35D 1F957 1F950 1F96F 1F95E 1F9C7 1F369 ' +
        '1F36A 1F366 1F368 1F36B 1F36C 1F34E 1F353 1F352 1F349 1F34B 1F34C 1F951 1F955 1F336 ' +
        '2615 1F375 1F9CB 1F964 1F37A 1F377 1F378 1F379 1F95B 1F9C0 1F95A 1F373 1F37D 1F374 ' +
        '1F9C2 1F382'
      ).split(' '),
    },
  },
  {
    packId: 'pack-shopping',
    name: 'Shopping',
    licenceDir: 'shopping',
    attribution: 'Tabler Icons by Paweł Kuna, MIT',
    cover: 0,
    source: {
      kind: 'tabler',
      style: 'outline',
      colour: '#1d4ed8',
      names: (
        'shopping-cart shopping-bag basket gift tag tags discount receipt credit-card cash coin ' +
        'wallet truck-delivery package building-store barcode rosette-discount percentage heart ' +
        'star thumb-up clock calendar-event mail phone map-pin world lock shield-check gift-card ' +
        'ticket speakerphone flame sparkles bolt award crown diamond pig-money coins ' +
        'shopping-cart-discount shirt device-mobile truck-return'
      ).split(' '),
    },
  },
  {
    packId: 'pack-arrows-badges',
    name: 'Arrows & Badges',
    licenceDir: 'arrows-badges',
    attribution: 'Tabler Icons by Paweł Kuna, MIT',
    cover: 0,
    source: {
      kind: 'tabler',
      style: 'filled',
      colour: '#dc2626',
      names: (
        'arrow-big-right arrow-big-left arrow-big-up arrow-big-down arrow-badge-right ' +
        'arrow-badge-left arrow-badge-up arrow-badge-down circle-check circle-x info-circle ' +
        'alert-triangle alert-circle help-circle rosette-discount-check rosette discount star ' +
        'heart thumb-up thumb-down bookmark flag bell bolt flame crown diamond gift award badge ' +
        'trophy circle-arrow-right circle-arrow-left circle-arrow-up circle-arrow-down ' +
        'square-check square-rounded-check hexagon sparkles message-circle bubble pin location'
      ).split(' '),
    },
  },
];

/** One icon of a pack before rasterising: a slug unique in the pack, names and the SVG. */
interface SourceIcon {
  slug: string;
  name: string;
  keywords: string[];
  svg: () => Promise<string>;
}

interface OpenMojiEntry {
  hexcode: string;
  annotation: string;
  tags: string;
  openmoji_tags: string;
}

const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const words = (list: string) =>
  list
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');

let openMojiData: Promise<Map<string, OpenMojiEntry>> | undefined;
/** CLDR names and tags by hexcode, from openmoji's data file (`1F389`, `2764-FE0F`). */
function emojiNames(): Promise<Map<string, OpenMojiEntry>> {
  openMojiData ??= readFile(join(packageDir('openmoji'), 'data', 'openmoji.json'), 'utf8').then(
    (text) => new Map((JSON.parse(text) as OpenMojiEntry[]).map((e) => [e.hexcode, e])),
  );
  return openMojiData;
}

/**
 * The icons of a pack's source, with names and search words.
 * @throws Error naming the icon when the package has no such file or name (a typo in the list).
 */
async function sourceIcons(source: Source): Promise<SourceIcon[]> {
  if (source.kind === 'tabler') {
    const dir = packageDir('@tabler/icons');
    const meta = JSON.parse(await readFile(join(dir, 'icons.json'), 'utf8')) as Record<
      string,
      { tags?: string[] }
    >;
    return source.names.map((name) => {
      if (!meta[name]) throw new Error(`@tabler/icons has no icon "${name}"`);
      return {
        slug: name,
        name: name.replace(/-/g, ' '),
        keywords: (meta[name].tags ?? []).map((t) => t.toLowerCase()),
        svg: async () =>
          (await readFile(join(dir, 'icons', source.style, `${name}.svg`), 'utf8')).replaceAll(
            'currentColor',
            source.colour,
          ),
      };
    });
  }
  const names = await emojiNames();
  return source.hexcodes.map((hex) => {
    const entry = names.get(hex) ?? names.get(`${hex}-FE0F`);
    if (!entry) throw new Error(`no emoji data for ${hex}`);
    const file =
      source.kind === 'twemoji'
        ? join(packageDir('@twemoji/svg'), `${hex.toLowerCase()}.svg`)
        : join(packageDir('openmoji'), 'color', 'svg', `${entry.hexcode}.svg`);
    return {
      slug: slugOf(entry.annotation),
      name: entry.annotation,
      keywords: [...new Set([...words(entry.tags), ...words(entry.openmoji_tags)])],
      svg: () => readFile(file, 'utf8'),
    };
  });
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The 512 px PNG of an SVG, from the disk cache when it was made before. */
async function rasterise(svg: string): Promise<StickerPng> {
  const file = join(CACHE_DIR, `${sha256(`${RASTER_VERSION}\n${svg}`)}.png`);
  try {
    return { bytes: await readFile(file), width: STICKER_SIZE, height: STICKER_SIZE };
  } catch {
    const png = await stickerFromSvg(svg);
    await mkdir(CACHE_DIR, { recursive: true });
    await writeFile(file, png.bytes);
    return png;
  }
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of results. */
async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** Keys already under a prefix of the assets bucket. */
async function storedKeys(prefix: string): Promise<Set<string>> {
  return new Set(
    (await listObjects(s3Client(), config().ASSETS_BUCKET, prefix, MAX_LISTED)).keys(),
  );
}

/** Puts a PNG at `key` unless it is there already (keys carry a content hash). */
async function putPng(key: string, bytes: Buffer, present: Set<string>): Promise<void> {
  if (present.has(key)) return;
  await s3Client().send(
    new PutObjectCommand({
      Bucket: config().ASSETS_BUCKET,
      Key: key,
      Body: bytes,
      ContentType: 'image/png',
      CacheControl: 'public, max-age=31536000, immutable',
    }),
  );
}

/**
 * Seeds one pack: rasterises and stores its stickers, writes the sticker items, removes items
 * the definition no longer has, and writes the pack item last (so an interrupted run is redone).
 * @returns the number of stickers, or 0 when the pack was already seeded at this version.
 */
async function seedPack(pack: SeedPack, position: number): Promise<number> {
  const icons = await sourceIcons(pack.source);
  const seedVersion = sha256(
    JSON.stringify({ pack, position, RASTER_VERSION, LAYOUT_VERSION }),
  ).slice(0, 16);
  const existing = (await db().StickerPack.get({ packId: pack.packId }).go()).data;
  if (existing?.seedVersion === seedVersion) return 0;

  const prefix = `files/stickers/${pack.packId}/`;
  const present = await storedKeys(prefix);
  const stickers = await mapLimit(icons, 4, async (icon) => {
    const png = await rasterise(await icon.svg());
    const key = `${prefix}${icon.slug}-${sha256(png.bytes).slice(0, 8)}.png`;
    await putPng(key, png.bytes, present);
    return { icon, key, png };
  });
  // The picker shows the 512 px image itself (about 16 kB of flat artwork, cached for a year):
  // a thumbnail would save a few kB per icon and double the files to store.
  const items = stickers.map(({ icon, key, png }, i) => ({
    stickerId: `${pack.packId.replace(/^pack-/, 'icon-')}-${icon.slug}`,
    packId: pack.packId,
    name: icon.name,
    keywords: icon.keywords,
    key,
    thumbKey: key,
    width: png.width,
    height: png.height,
    position: i,
  }));
  if (new Set(items.map((s) => s.stickerId)).size !== items.length)
    throw new Error(`${pack.packId}: two stickers share a slug`);
  await db().Sticker.put(items).go({ concurrency: 4 });
  const keep = new Set(items.map((s) => s.stickerId));
  const stale = (
    await db().Sticker.query.byPack({ packId: pack.packId }).go({ pages: 'all' })
  ).data.filter((s) => !keep.has(s.stickerId));
  if (stale.length > 0)
    await db()
      .Sticker.delete(stale.map((s) => ({ stickerId: s.stickerId })))
      .go();
  await db()
    .StickerPack.put({
      packId: pack.packId,
      name: pack.name,
      position,
      coverKey: items[pack.cover]!.key,
      stickerCount: items.length,
      attribution: pack.attribution,
      status: existing?.status ?? 'active',
      seedVersion,
    })
    .go();
  return items.length;
}

/**
 * Seeds every pack of {@link SEED_PACKS} that is missing or out of date; idempotent and safe to
 * run on every start.
 * @param log progress lines.
 * @returns how many packs were written (0 when all were up to date).
 * @throws Error when a listed icon is not in its package, or S3/DynamoDB fail.
 */
export async function seedStickers(log: (line: string) => void = console.log): Promise<number> {
  // Packs in parallel: one pack's DynamoDB writes overlap another's S3 puts.
  const counts = await Promise.all(SEED_PACKS.map((pack, i) => seedPack(pack, i + 1)));
  const packs = counts.filter((n) => n > 0).length;
  const total = counts.reduce((a, b) => a + b, 0);
  if (packs > 0) log(`  sticker library: ${packs} packs, ${total} stickers`);
  return packs;
}
