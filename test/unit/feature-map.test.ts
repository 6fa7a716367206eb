/**
 * The feature map (docs/features.md) cannot rot silently: every repository path it writes in
 * backticks exists, and every feature of the route table (shared/routes.ts `FEATURES`) has a
 * section (`### <feature>` or a heading naming it with others, "templates and bundles").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '#shared/routes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const MAP = readFileSync(join(ROOT, 'docs', 'features.md'), 'utf8');
/** A backticked path under one of the repository's top folders (bounded, linear). */
const PATH = /`((?:docs|functions|infra|shared|test|web)\/[\w./-]{1,200})`/g;

describe('docs/features.md', () => {
  it('writes only paths that exist', () => {
    const paths = [...MAP.matchAll(PATH)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('has a section for every feature of the route table', () => {
    const headings = [...MAP.matchAll(/^### (.{1,120})$/gm)].map((m) => m[1]!);
    const named = (feature: string) =>
      headings.some((h) => h.split(/,| and | \(/).some((part) => part.trim() === feature));
    expect(FEATURES.filter((f) => !named(f))).toEqual([]);
  });
});
