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
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Absolute path of a folder given relative to this file (POSIX paths: Linux and Lambda). */
const here = (relative: string): string =>
  decodeURIComponent(new URL(relative, import.meta.url).pathname).replace(/\/$/, '');

export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: here('./public'),
  plugins: [react()],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2023',
  },
});
