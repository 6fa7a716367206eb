/**
 * Generates the font data the product ships (docs/fonts.md), from installed packages only:
 *
 * - `catalogue.data.ts`: every web-font family of `@capsizecss/metrics` with its category
 *   (docs/fonts.md "The catalogue": "font entry has family and category"), system fonts and icon
 *   fonts left out (they are not web fonts anyone can load). One `Family\tc` line each: about 40
 *   kB, so the 169 MB metrics package never reaches a bundle.
 * - `hosted.data.ts`: the families whose files we host (the installed `@fontsource` packages,
 *   less the fallback stack the render page and the editor already bundle): each face's weight,
 *   style, woff2 file name and unicode-range, from the packages' own `@font-face` sheets.
 *
 * - `stack/*.css` and `coverage.data.ts`: the fallback stack's `@font-face` rules
 *   and the code points the shipped faces draw (generate-stack.ts).
 *
 * Run `tsx shared/fonts/generate.ts` after adding or updating a font package; the output is
 * committed, so builds and Lambdas never read node_modules for it.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { generateStack, stackPackages } from './generate-stack.ts';
import type { FontCategory, HostedFamily } from './types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const require = createRequire(import.meta.url);

/** Families in the metrics package that are operating-system or icon fonts, not web fonts. */
const NOT_WEB_FONTS = new Set([
  '-apple-system',
  'BlinkMacSystemFont',
  'Arial',
  'Helvetica',
  'Helvetica Neue',
  'Times New Roman',
  'Courier New',
  'Georgia',
  'Verdana',
  'Tahoma',
  'Trebuchet MS',
  'Segoe UI',
  'Lucida Grande',
  'Brush Script',
  'Material Symbols',
  'Material Symbols Outlined',
  'Material Symbols Rounded',
  'Material Symbols Sharp',
  'Material Icons',
]);

/** The packages of the fallback stack (shared/scene/fonts.ts), bundled by the page and editor. */
const BUNDLED_PACKAGES = new Set(
  stackPackages()
    .filter((pkg) => pkg.startsWith('@fontsource/'))
    .map((pkg) => pkg.slice('@fontsource/'.length)),
);

/** The sheets hosted per family: the weights and styles a text snippet can take (docs/fonts.md "The catalogue"). */
const SHEETS = ['400.css', '700.css', '400-italic.css', '700-italic.css'];

const CATEGORY_CODE: Record<FontCategory, string> = {
  'sans-serif': 's',
  serif: 'r',
  display: 'd',
  handwriting: 'h',
  monospace: 'm',
};

async function catalogue(): Promise<Map<string, FontCategory>> {
  const { entireMetricsCollection } =
    (await import('@capsizecss/metrics/entireMetricsCollection')) as unknown as {
      entireMetricsCollection: Record<string, { familyName: string; category: FontCategory }>;
    };
  const families = new Map<string, FontCategory>();
  for (const { familyName, category } of Object.values(entireMetricsCollection)) {
    if (NOT_WEB_FONTS.has(familyName) || !(category in CATEGORY_CODE)) continue;
    families.set(familyName, category);
  }
  return new Map([...families].sort(([a], [b]) => a.localeCompare(b, 'en')));
}

/** Parses a fontsource sheet's `@font-face` blocks into faces (woff2 files only). */
function parseSheet(css: string): Array<HostedFamily['faces'][number] & { family: string }> {
  const faces = [];
  for (const [, block] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const get = (name: string) => new RegExp(`${name}:\\s*([^;]+);`).exec(block!)?.[1]?.trim();
    const file = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(block!)?.[1];
    const family = get('font-family')?.replace(/^['"]|['"]$/g, '');
    if (!file || !family) continue;
    faces.push({
      family,
      file,
      weight: Number(get('font-weight') ?? 400),
      style: get('font-style') === 'italic' ? ('italic' as const) : ('normal' as const),
      ...(get('unicode-range') ? { unicodeRange: get('unicode-range')! } : {}),
    });
  }
  return faces;
}

async function hosted(categories: Map<string, FontCategory>): Promise<HostedFamily[]> {
  const dir = join(root, 'node_modules', '@fontsource');
  const out: HostedFamily[] = [];
  for (const pkg of (await readdir(dir)).sort()) {
    if (BUNDLED_PACKAGES.has(pkg)) continue;
    const pkgRoot = dirname(require.resolve(`@fontsource/${pkg}/package.json`));
    const faces = [];
    for (const sheet of SHEETS) {
      const css = await readFile(join(pkgRoot, sheet), 'utf8').catch(() => '');
      faces.push(...parseSheet(css));
    }
    const family = faces[0]?.family;
    if (!family) continue;
    const { version } = JSON.parse(await readFile(join(pkgRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    out.push({
      family,
      slug: `${pkg}-${version}`,
      category: categories.get(family) ?? 'sans-serif',
      faces: faces.map(({ family: _family, ...face }) => face),
    });
  }
  return out;
}

const prettierOptions = { ...(await resolveConfig(join(here, 'generate.ts'))) };
/** Generated TypeScript in the repository's Prettier style (npm run lint checks it). */
const formatTs = (text: string) => format(text, { ...prettierOptions, parser: 'typescript' });

const HEADER = (what: string) =>
  `/**\n * ${what}\n * Generated by shared/fonts/generate.ts from installed packages: do not edit by hand.\n */\n`;

const families = await catalogue();
const lines = [...families].map(([family, category]) => `${family}\t${CATEGORY_CODE[category]}`);
await writeFile(
  join(here, 'catalogue.data.ts'),
  await formatTs(
    `${HEADER(
      'The web-font catalogue (@capsizecss/metrics): one `Family\\tc` line per family, c the category code of catalogue.ts.',
    )}export const CATALOGUE_DATA =\n  ${JSON.stringify(lines.join('\n'))};\n`,
  ),
);
const hostedFamilies = await hosted(families);
await writeFile(
  join(here, 'hosted.data.ts'),
  await formatTs(
    `${HEADER(
      'Families whose files we host (@fontsource): faces by weight, style, woff2 file and unicode-range.',
    )}import type { HostedFamily } from './types.ts';\n\nexport const HOSTED_FAMILIES: HostedFamily[] = ${JSON.stringify(hostedFamilies, null, 2)};\n`,
  ),
);
const stackDir = join(here, 'stack');
const stack = await generateStack(stackDir, hostedFamilies);
await rm(stackDir, { recursive: true, force: true });
await mkdir(stackDir, { recursive: true });
for (const [file, css] of Object.entries(stack.sheets)) {
  await writeFile(join(stackDir, file), await format(css, { ...prettierOptions, parser: 'css' }));
}
await writeFile(join(here, 'coverage.data.ts'), await formatTs(stack.coverage));
await writeFile(join(here, 'cjk-coverage.data.ts'), await formatTs(stack.cjkCoverage));
for (const line of stack.summary) console.log(line);
console.log(`catalogue: ${families.size} families; hosted: ${hostedFamilies.length} families`);
