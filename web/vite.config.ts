/**
 * Vite config of the SPA (DESIGN.md §2, `web/`).
 *
 * Used two ways, so it sets no dev-server port or proxy:
 * - `vite build --config web/vite.config.ts` writes the static site to `dist/web` at the repo
 *   root (hashed files under `/assets/`), which CloudFront serves from S3;
 * - the local gateway (`infra/local`) runs Vite in middleware mode with this file, serving the
 *   SPA and the API on one origin.
 *
 * `root` is this folder whatever the working directory, because both callers run from the repo
 * root.
 */
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readdirSync } from 'node:fs';
import { writeViewerFiles } from '../infra/tools/copy-api-viewer.ts';
import { join } from 'node:path';
import { STAMPS, writeBuildStamp } from '../shared/build-stamp.ts';

/** Absolute path of a folder given relative to this file (POSIX paths: Linux and Lambda). */
const here = (relative: string): string =>
  decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/\/$/, '');

/** Every file under `dir`, recursively (the public folder is copied, not imported). */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/**
 * Records what the build read (shared/build-stamp.ts), so `npm run preview` builds the SPA only
 * when its sources changed.
 */
const buildStamp = (): Plugin => {
  let ids: string[] = [];
  return {
    name: 'picsnippets-build-stamp',
    apply: 'build',
    generateBundle() {
      ids = [...this.getModuleIds()].filter((id) => id.startsWith('/'));
    },
    async writeBundle() {
      await writeBuildStamp(
        STAMPS.web,
        [...ids, ...filesUnder(here('./public'))],
        [here('./vite.config.ts'), here('./index.html'), here('./tsconfig.json')],
      );
    },
  };
};

/**
 * Puts the API reference viewer (`/vendor/swagger-ui/`, loaded by `GET /api/docs`) into the
 * public folder from the installed package before the SPA is served or built, so the 1.5 MB
 * vendor files are never kept in git (infra/tools/copy-api-viewer.ts, docs/developer-api.md).
 */
const apiViewer = (): Plugin => ({
  name: 'picsnippets-api-viewer',
  buildStart() {
    writeViewerFiles();
  },
});

export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: here('./public'),
  plugins: [react(), apiViewer(), buildStamp()],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2023',
  },
});
