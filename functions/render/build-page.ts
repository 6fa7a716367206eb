/**
 * Builds the render page bundle into functions/render/page/dist: index.html, main.js (fabric and
 * shared/scene, bundled by esbuild) and the fonts with their @font-face CSS. The render Lambda
 * ships this folder; the local stack serves it to the warm page through request interception.
 */
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMPS, writeBuildStamp } from '#shared/build-stamp.ts';

const here = dirname(fileURLToPath(import.meta.url));
const pageDir = join(here, 'page');
const out = join(pageDir, 'dist');
const require = createRequire(import.meta.url);

/**
 * The fallback stack's faces (shared/scene/fonts.ts), from @fontsource: the @font-face sheets
 * of the weights the scene draws (400, 700 and italics where shipped) and only the woff2 files
 * those sheets name (DESIGN.md §5: the same glyphs in Lambda and here).
 */
const FONT_PACKAGES: Array<{ pkg: string; sheets: string[] }> = [
  {
    pkg: '@fontsource/noto-sans',
    sheets: ['400.css', '700.css', '400-italic.css', '700-italic.css'],
  },
  { pkg: '@fontsource/noto-sans-arabic', sheets: ['400.css', '700.css'] },
  { pkg: '@fontsource/noto-sans-hebrew', sheets: ['400.css', '700.css'] },
  { pkg: '@fontsource/noto-sans-sc', sheets: ['400.css', '700.css'] },
  // Noto Color Emoji as COLRv1: Chromium draws it in canvas; @fontsource's build of the same
  // font draws nothing in headless Chromium (checked), so this package ships it instead.
  { pkg: '@infolektuell/noto-color-emoji', sheets: ['index.css'] },
];

async function copyFonts(): Promise<void> {
  const fontsOut = join(out, 'fonts');
  await mkdir(join(fontsOut, 'files'), { recursive: true });
  const css: string[] = [];
  for (const { pkg, sheets } of FONT_PACKAGES) {
    const root = dirname(require.resolve(`${pkg}/package.json`));
    for (const sheet of sheets) {
      let text: string;
      try {
        text = await readFile(join(root, sheet), 'utf8');
      } catch {
        continue; // a weight or style this package does not ship
      }
      // woff2 only: every Chromium reads it, and the woff fallbacks double the size.
      text = text.replace(/,\s*url\([^)]*\.woff\) format\('woff'\)/g, '');
      // Files are renamed with the package's name, so packages' `0.woff2` never collide.
      const slug = pkg.replace(/[^a-z0-9]+/gi, '-').replace(/^-/, '');
      for (const [, file] of text.matchAll(/url\(\.\/files\/([^)]+\.woff2)\)/g)) {
        await cp(join(root, 'files', file!), join(fontsOut, 'files', `${slug}-${file!}`));
      }
      css.push(text.replace(/url\(\.\/files\/([^)]+\.woff2)\)/g, `url(./files/${slug}-$1)`));
    }
  }
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
    [fileURLToPath(import.meta.url), join(pageDir, 'index.html')],
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildRenderPage();
  console.log(`render page built in ${out}`);
}
