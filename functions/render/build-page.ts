/**
 * Builds the render page bundle into functions/render/page/dist: index.html, main.js (fabric and
 * shared/scene, bundled by esbuild) and the fonts with their @font-face CSS. The render Lambda
 * ships this folder; the local stack serves it to the warm page through request interception.
 */
import { build } from 'esbuild';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMPS, writeBuildStamp } from '#shared/build-stamp.ts';

const here = dirname(fileURLToPath(import.meta.url));
const pageDir = join(here, 'page');
const out = join(pageDir, 'dist');

/** The fallback stack's generated sheets (shared/fonts/generate-stack.ts). */
const STACK_DIR = join(here, '..', '..', 'shared', 'fonts', 'stack');

/**
 * The fallback stack's faces (shared/scene/fonts.ts): every generated sheet of
 * shared/fonts/stack (the same `@font-face` rules the editor imports), concatenated into
 * `fonts/fonts.css`, and the woff2 files they name copied to `fonts/files/`
 * (docs/adr/0004-render-slice.md "Render slice": the same glyphs in Lambda and the editor). The
 * page registers all of them; a face downloads only when a text needs it.
 */
async function copyFonts(): Promise<void> {
  const fontsOut = join(out, 'fonts');
  await mkdir(join(fontsOut, 'files'), { recursive: true });
  const sheets = (await readdir(STACK_DIR)).filter((f) => f.endsWith('.css')).sort();
  // base.css first: the order of the rules does not change which face draws (the family list
  // does), but keeps the file readable.
  sheets.sort((a, b) => Number(b === 'base.css') - Number(a === 'base.css'));
  const css: string[] = [];
  const copies: Promise<void>[] = [];
  for (const sheet of sheets) {
    const text = await readFile(join(STACK_DIR, sheet), 'utf8');
    css.push(
      text.replace(/url\(([^)]+\.woff2)\)/g, (_m, path: string) => {
        // Flattened into one folder under the package's name and the file's: unique, and the
        // Lambda never reads node_modules.
        const source = resolve(STACK_DIR, path);
        const name = relative(join(here, '..', '..', 'node_modules'), source)
          .replace('/files/', '/')
          .replace(/[^a-z0-9.]+/gi, '-')
          .replace(/^-/, '');
        copies.push(cp(source, join(fontsOut, 'files', name)));
        return `url(./files/${name})`;
      }),
    );
  }
  await Promise.all(copies);
  await writeFile(join(fontsOut, 'fonts.css'), css.join('\n'));
}

/**
 * Builds the render page into `functions/render/page/dist` and records its sources
 * (`shared/build-stamp.ts`), so `npm start` rebuilds it only when they change.
 * @throws esbuild's error when the page does not compile
 */
export async function buildRenderPage(): Promise<void> {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    metafile: true,
    entryPoints: [join(pageDir, 'src/main.ts')],
    outfile: join(out, 'main.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    legalComments: 'external',
    logLevel: 'warning',
  });
  await cp(join(pageDir, 'index.html'), join(out, 'index.html'));
  await copyFonts();
  // esbuild's input paths are relative to the working directory.
  await writeBuildStamp(
    STAMPS.renderPage,
    Object.keys(result.metafile.inputs).map((path) => resolve(path)),
    [
      fileURLToPath(import.meta.url),
      join(pageDir, 'index.html'),
      ...(await readdir(STACK_DIR)).map((f) => join(STACK_DIR, f)),
    ],
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildRenderPage();
  console.log(`render page built in ${out}`);
}
