/**
 * Synth with bundling needs the built render page (functions/render/page/dist); without it the
 * error says what to run instead of failing later inside the Lambda (docs/infra.md "Deploy").
 */
import type * as fsModule from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const missing = new Set<string>();
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof fsModule>();
  return { ...fs, existsSync: (p: string) => !missing.has(String(p)) && fs.existsSync(p) };
});

const { createApp } = await import('#infra/stack.ts');
const { RENDER_PAGE_DIST } = await import('#infra/constructs/render.ts');

describe('render page bundle', () => {
  it('stops a bundling synth with the command to run when the page is not built', () => {
    missing.add(join(RENDER_PAGE_DIST, 'index.html'));
    try {
      expect(() => createApp({}, { apiArch: 'x64' })).toThrow(/npm run build:render/);
    } finally {
      missing.clear();
    }
  });

  it('does not need the page when bundling is skipped (assertion tests)', () => {
    missing.add(join(RENDER_PAGE_DIST, 'index.html'));
    try {
      expect(() =>
        createApp({ context: { 'aws:cdk:bundling-stacks': [] } }, { apiArch: 'x64' }),
      ).not.toThrow();
    } finally {
      missing.clear();
    }
  });
});
