/**
 * Build stamps: what a build read, so a later start can tell whether its output is current
 * without building again (docs/adr/0038-builds-on-start.md "Builds on start"). A stamp is a JSON
 * file under `dist/.stamps/` listing every source file the bundler read (outside node_modules),
 * plus the lock file and the build's own config, each with its size and modification time.
 *
 * No dependencies beyond Node, so the Vite config, the render page build (functions/render) and
 * the local stack can all import it; it lives in shared/ because `functions/` never imports
 * `infra/` (docs/adr/0046-module-boundaries.md "Module boundaries").
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The stamp of each build. */
export const STAMPS = {
  web: join(REPO_ROOT, 'dist', '.stamps', 'web.json'),
  renderPage: join(REPO_ROOT, 'dist', '.stamps', 'render-page.json'),
} as const;

interface Stamp {
  /** Repository-relative path → `size:mtimeMs`. */
  inputs: Record<string, string>;
}

const fingerprint = async (file: string): Promise<string | undefined> => {
  try {
    const s = await stat(file);
    return `${s.size}:${Math.trunc(s.mtimeMs)}`;
  } catch {
    return undefined;
  }
};

/**
 * Writes a build's stamp after the build succeeded.
 * @param stampFile one of `STAMPS`
 * @param files absolute or repository-relative paths the build read; files under node_modules,
 *   virtual modules and missing files are left out (the lock file stands for node_modules)
 * @param extra further files that decide the output (the build's config), always included
 */
export async function writeBuildStamp(
  stampFile: string,
  files: Iterable<string>,
  extra: string[] = [],
): Promise<void> {
  const inputs: Record<string, string> = {};
  const all = [...files, 'package-lock.json', ...extra];
  for (const file of all) {
    const absolute = isAbsolute(file) ? file : join(REPO_ROOT, file);
    const path = relative(REPO_ROOT, absolute);
    if (path.startsWith('..') || path.split('/').includes('node_modules')) continue;
    const print = await fingerprint(absolute);
    if (print !== undefined) inputs[path] = print;
  }
  await mkdir(dirname(stampFile), { recursive: true });
  await writeFile(stampFile, JSON.stringify({ inputs } satisfies Stamp, null, 1));
}

/**
 * Why a build must run again, or undefined when its output is current: the output or stamp is
 * missing, or any input recorded in the stamp changed or went away. A new file is always seen
 * through the file that imports it, whose time changed.
 * @param stampFile one of `STAMPS`
 * @param output a file the build writes (checked to exist)
 */
export async function staleReason(stampFile: string, output: string): Promise<string | undefined> {
  if (!existsSync(output)) return 'not built yet';
  let stamp: Stamp;
  try {
    stamp = JSON.parse(await readFile(stampFile, 'utf8')) as Stamp;
  } catch {
    return 'no record of its sources';
  }
  for (const [path, print] of Object.entries(stamp.inputs)) {
    if ((await fingerprint(join(REPO_ROOT, path))) !== print) return `${path} changed`;
  }
  return undefined;
}
