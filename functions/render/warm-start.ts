/**
 * The render Lambda's init (docs/performance.md
 * "Render v2: CPU per render, the fonts stage, cold start"): imported first by handler.ts, so
 * that in a Lambda sandbox Chromium is launched and the render page opened while the rest of the
 * function's modules load, and `warmUpAtInit` then draws one warm-up scene, fetches one DynamoDB
 * item and one S3 answer, all before the first request.
 *
 * Only in a Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set; `RENDER_WARM_START=0` turns it off): the
 * local stack warms its own Chromium (infra/local/stack.ts) and tests decide when Chromium runs.
 * Nothing here can fail the init: every error is logged, and the first request starts what
 * did not (browser.ts relaunches on demand).
 */
// Few static imports: they load before this module's body starts Chromium. The SDKs and sharp
// are imported in `warmUpAtInit`, by when handler.ts has loaded them.
import { readFileSync } from 'node:fs';
import { logger } from '#lib/logger.ts';
import { DEFAULT_FONT_FAMILY } from '#shared/fonts/defaults.ts';
import type { ResolvedScene, ResolvedTextLayer } from '#shared/scene/resolve.ts';
import { getRenderPage } from './browser.ts';

/**
 * True when this process is a Lambda sandbox whose init should warm the renderer.
 * @param env the process environment (a parameter for tests).
 */
export function warmStartWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && env.RENDER_WARM_START !== '0';
}

/** How long the init waits for Chromium's process to exist before loading the rest, ms. */
const SPAWN_WAIT_MS = 250;
/** How long the whole warm-up may hold the init, ms (Lambda allows 10 s). */
const WARM_UP_LIMIT_MS = 5000;

/** This process's children, from /proc (empty where it cannot be read). */
function childCount(): number {
  try {
    const text = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
    return text.trim() === '' ? 0 : text.trim().split(' ').length;
  } catch {
    return 0;
  }
}

/**
 * Waits until a child process (Chromium) exists, at most `SPAWN_WAIT_MS`: module evaluation is
 * synchronous, so without this pause puppeteer would spawn Chromium only after every module had
 * loaded. Bounded, and harmless when /proc has no `children` file (it then waits the bound).
 */
async function untilSpawned(): Promise<void> {
  const before = childCount();
  const deadline = performance.now() + SPAWN_WAIT_MS;
  while (childCount() <= before && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * When each step of the init warm-up ended, in ms since the process started
 * (`performance.now()`), for the cold-start benchmark's split (test/bench/cold-start.ts): this
 * module running, Chromium's process spawned, the other modules loaded (`warmUpAtInit` called),
 * the render page open, the warm-up draw, the whole warm-up. A step that did not run is absent.
 */
export const initSteps: Partial<
  Record<'module' | 'spawned' | 'modules_loaded' | 'page_open' | 'warm_up_draw' | 'warm_up', number>
> = {};

/** The render page, opening since this module loaded; undefined outside a Lambda. */
const opening: Promise<unknown> | undefined = warmStartWanted()
  ? getRenderPage().then(
      () => (initSteps.page_open = performance.now()),
      (error: unknown) => {
        logger.warn('render page not opened at init; the first request opens it', {
          error: error as Error,
        });
      },
    )
  : undefined;
if (opening) {
  initSteps.module = performance.now();
  await untilSpawned();
  initSteps.spawned = performance.now();
}

/**
 * Every printable ASCII character: the page remembers characters whose faces are loaded
 * (page/src/main.ts `knownLoaded`), so a first request in these faces skips the font check.
 */
const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

/** A text layer of the warm-up scene: the default family and one hosted one, Latin letters. */
const warmText = (
  id: string,
  fontFamily: string,
  fontWeight: 'normal' | 'bold',
  top: number,
): ResolvedTextLayer => ({
  id,
  text: PRINTABLE_ASCII,
  left: 10,
  top,
  width: 380,
  fontFamily,
  fontWeight,
  fontStyle: 'normal',
  underline: false,
  textAlign: 'left',
  angle: 0,
  fill: '#ffffff',
  stroke: '#000000',
  strokeWidth: 2,
  fontSize: 24,
  minFontSize: 8,
});

/** The warm-up scene: two short texts on a 400x120 canvas, nothing fetched. */
export const WARM_UP_SCENE: ResolvedScene = {
  width: 400,
  height: 120,
  images: [],
  texts: [
    warmText('warm-1', DEFAULT_FONT_FAMILY, 'normal', 10),
    warmText('warm-2', 'Noto Sans', 'bold', 60),
  ],
};

/** One draw of the warm-up scene on the warm page, and one small JPEG encode (sharp's JIT). */
async function drawWarmUpScene(): Promise<void> {
  await opening;
  const page = await getRenderPage();
  await page.evaluate(
    (scene) =>
      (
        globalThis as unknown as { picsnippetsRender(s: ResolvedScene): Promise<unknown> }
      ).picsnippetsRender(scene),
    WARM_UP_SCENE,
  );
  initSteps.warm_up_draw = performance.now();
  const { default: sharp } = await import('sharp');
  await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
    .jpeg({ quality: 86 })
    .toBuffer();
}

/** One DynamoDB read on the render's own path: the design query by a public id no design has. */
async function fetchFirstItem(): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  await db().Design.query.byPublicId({ publicId: 'warm-up' }).go({ limit: 1 });
}

/** One S3 read on the render cache's path: a key that is not there. */
async function firstS3Read(): Promise<void> {
  const [{ GetObjectCommand }, { s3Client }, { config }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('#lib/clients.ts'),
    import('#lib/config.ts'),
  ]);
  await s3Client().send(
    new GetObjectCommand({ Bucket: config().RENDERS_BUCKET, Key: 'warm-up/none.jpg' }),
  );
}

/**
 * Warms the renderer during the Lambda init: the page (opening since load), one warm-up
 * scene drawn, the DynamoDB client's first answer (credentials, connection, the entity
 * layer) and the S3 client's, in parallel; at most `WARM_UP_LIMIT_MS`. Outside a Lambda it
 * does nothing. Never throws.
 */
export async function warmUpAtInit(): Promise<void> {
  if (!opening) return;
  const started = performance.now();
  initSteps.modules_loaded = started;
  const step = (what: string, work: () => Promise<unknown>) =>
    work().catch((error: unknown) => {
      // A missing key is the expected answer of the S3 read.
      if ((error as { name?: string }).name !== 'NoSuchKey')
        logger.warn(`init warm-up: ${what} failed`, { error: error as Error });
    });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([
      step('warm-up draw', drawWarmUpScene),
      step('first DynamoDB read', fetchFirstItem),
      step('first S3 read', firstS3Read),
    ]),
    new Promise((resolve) => (timer = setTimeout(resolve, WARM_UP_LIMIT_MS))),
  ]);
  clearTimeout(timer);
  initSteps.warm_up = performance.now();
  logger.info('render init warm-up', { ms: Math.round(performance.now() - started) });
}
