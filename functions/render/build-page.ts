/**
 * Builds the render page bundle into functions/render/page/dist: index.html, main.js (fabric and
 * shared/scene, bundled by esbuild) and the fonts with their @font-face CSS. The render Lambda
 * ships this folder; the local stack serves it to the warm page through request interception.
 */
import { build } from 'esbuild';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pageDir = join(here, 'page');
const out = join(pageDir, 'dist');
const require = createRequire(import.meta.url);

/** Font packages from @fontsource whose CSS and woff2 files the page loads. */
const FONT_PACKAGES = [
  { pkg: '@fontsource/noto-sans', css: ['400.css', '700.css', '400-italic.css', '700-italic.css'] },
];

async function copyFonts(): Promise<void> {
  const fontsOut = join(out, 'fonts');
  await mkdir(join(fontsOut, 'files'), { recursive: true });
  const css: string[] = [];
  for (const { pkg, css: sheets } of FONT_PACKAGES) {
    const root = dirname(require.resolve(`${pkg}/package.json`));
    for (const sheet of sheets) {
      try {
        css.push(await readFile(join(root, sheet), 'utf8'));
      } catch {
        // A weight/style the package does not ship; the others still load.
      }
    }
    for (const file of await readdir(join(root, 'files'))) {
      if (file.endsWith('.woff2'))
        await cp(join(root, 'files', file), join(fontsOut, 'files', file));
    }
  }
  await writeFile(join(fontsOut, 'fonts.css'), css.join('\n'));
}

export async function buildRenderPage(): Promise<void> {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await build({
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
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildRenderPage();
  console.log(`render page built in ${out}`);
}
