/**
 * What the fonts cost in bytes (docs/fonts.md "Sizes"): the render Lambda's code asset and the
 * SPA's first load, for a built tree.
 *
 * - **Render Lambda**: `functions/render/handler.ts` bundled as the CDK's `HandlerFunction` does
 *   it (ESM, minified, source map, the layer's packages external) plus the render page
 *   (`functions/render/page/dist`), zipped with `zip -9` as Lambda receives it; the layer
 *   (Chromium, puppeteer-core, sharp) is unchanged by fonts and left out.
 * - **SPA**: from the Vite manifest (`dist/web/.vite/manifest.json`, a build with
 *   `--manifest`): the first load is the entry chunk, its static imports and their CSS (what
 *   index.html loads before any route); the editor route adds the EditorPage and Editor chunks,
 *   their static imports not in the first load, and their CSS. Sizes gzip level 9, as
 *   docs/performance.md "Editor" counts them. Font files are not counted: a face downloads only
 *   for text in its range.
 *
 * Usage: `npm run build:render && npx vite build --config web/vite.config.ts --manifest`, then
 * `npx tsx test/bench/sizes.ts [root]` (root: a checkout to measure, default this one).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', '..'));

/** infra/constructs/render.ts `RENDER_EXTERNAL_MODULES` (the Lambda layer's packages). */
const EXTERNAL_MODULES = ['@sparticuz/chromium', 'puppeteer-core', 'sharp'];

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const MB = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

async function renderLambda(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'render-size-'));
  try {
    await build({
      entryPoints: [join(root, 'functions', 'render', 'handler.ts')],
      outfile: join(dir, 'index.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      mainFields: ['module', 'main'],
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      external: EXTERNAL_MODULES,
      logLevel: 'error',
    });
    const page = join(root, 'functions', 'render', 'page', 'dist');
    execFileSync('mkdir', ['-p', join(dir, 'page')]);
    execFileSync('cp', ['-R', page, join(dir, 'page', 'dist')]);
    execFileSync(
      'zip',
      ['-q', '-r', '-9', join(dir, 'asset.zip'), 'index.mjs', 'index.mjs.map', 'page'],
      {
        cwd: dir,
      },
    );
    const pageFiles = filesUnder(page);
    const fontFiles = pageFiles.filter((f) => f.includes('/fonts/files/'));
    const size = (files: string[]) => files.reduce((s, f) => s + statSync(f).size, 0);
    console.log('render Lambda code asset');
    console.log(
      `  handler bundle (index.mjs + map)  ${MB(size([join(dir, 'index.mjs'), join(dir, 'index.mjs.map')]))}`,
    );
    console.log(
      `  render page                      ${MB(size(pageFiles))} in ${pageFiles.length} files`,
    );
    console.log(
      `    of which font files             ${MB(size(fontFiles))} in ${fontFiles.length} files`,
    );
    console.log(
      `    fonts.css                       ${kB(statSync(join(page, 'fonts', 'fonts.css')).size)}`,
    );
    console.log(
      `  unzipped total                   ${MB(size(filesUnder(dir).filter((f) => !f.endsWith('.zip'))))}`,
    );
    console.log(`  zipped (zip -9)                  ${MB(statSync(join(dir, 'asset.zip')).size)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Chunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

function spa(): void {
  const web = join(root, 'dist', 'web');
  const manifest = JSON.parse(readFileSync(join(web, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  /** A chunk and its static imports, recursively. */
  const closure = (key: string, into = new Set<string>()): Set<string> => {
    if (into.has(key)) return into;
    into.add(key);
    for (const next of manifest[key]?.imports ?? []) closure(next, into);
    return into;
  };
  const files = (keys: Iterable<string>) => {
    const js = new Set<string>();
    const css = new Set<string>();
    for (const key of keys) {
      js.add(manifest[key]!.file);
      for (const c of manifest[key]!.css ?? []) css.add(c);
    }
    return { js, css };
  };
  const sum = (names: Iterable<string>) => [...names].reduce((s, f) => s + gzip(join(web, f)), 0);
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const first = files(closure(entry));
  const editorKeys = Object.keys(manifest).filter((k) =>
    /src\/(pages\/EditorPage|features\/editor\/Editor)\.tsx$/.test(k),
  );
  const routeKeys = new Set<string>();
  for (const key of editorKeys) closure(key, routeKeys);
  const editor = files([...routeKeys]);
  for (const f of first.js) editor.js.delete(f);
  for (const f of first.css) editor.css.delete(f);
  console.log('SPA, gzip -9');
  console.log(
    `  first load: JS ${kB(sum(first.js))} (${first.js.size} files), CSS ${kB(sum(first.css))}`,
  );
  console.log(
    `  editor route adds: JS ${kB(sum(editor.js))} (${editor.js.size} files), CSS ${kB(sum(editor.css))} (${[...editor.css].join(', ')})`,
  );
  const lazy = Object.entries(manifest).filter(([k]) =>
    /stack\/noto-sans-\w+\.css$|cjk-coverage/.test(k),
  );
  for (const [key, chunk] of lazy)
    console.log(`  on demand: ${key.replace(/^.*\//, '')} ${kB(gzip(join(web, chunk.file)))}`);
}

await renderLambda();
spa();
