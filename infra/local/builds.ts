/**
 * `npm start` and `npm run preview` build what they serve when it is missing or stale, so a
 * fresh clone needs no build command first (docs/adr/0038-builds-on-start.md "Builds on start"). A
 * build runs only when a source it read changed (`shared/build-stamp.ts`), so a second start stays
 * fast.
 */
import { join } from 'node:path';
import { REPO_ROOT, STAMPS, staleReason } from '#shared/build-stamp.ts';

/**
 * Builds the render page bundle, and with `spa` the SPA into `dist/web`, when missing or stale.
 * @param options.spa also the SPA (preview serves the build; `npm start` serves Vite)
 * @param options.log told what is built and why
 * @throws the bundler's error when a build fails
 */
export async function ensureBuilds(options: {
  spa: boolean;
  log: (line: string) => void;
}): Promise<void> {
  const renderReason = await staleReason(
    STAMPS.renderPage,
    join(REPO_ROOT, 'functions', 'render', 'page', 'dist', 'main.js'),
  );
  if (renderReason) {
    options.log(`Building the render page (${renderReason})…`);
    const { buildRenderPage } = await import('#functions/render/build-page.ts');
    await buildRenderPage();
  }
  if (!options.spa) return;
  const webReason = await staleReason(STAMPS.web, join(REPO_ROOT, 'dist', 'web', 'index.html'));
  if (webReason) {
    options.log(`Building the SPA (${webReason})…`);
    const { build } = await import('vite');
    await build({ configFile: join(REPO_ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
  }
}
