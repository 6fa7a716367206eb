/**
 * Comments cite what a reader of the repository can open: a section of docs/ (`docs/security.md
 * "Login throttling"`) or a test (`test/integration/auth.test.ts`). A citation of a tracker issue
 * (the word issue with a colon or a hash, an issue number) points at a thread that is closed and
 * not in the repository, so this test fails on one and names its file and line.
 *
 * Comments do not cite the outside papers either: the product specification's sections
 * (`spec 000 §5`) and the design and style notes (`DESIGN.md`, `STYLE.md`) are not in the
 * repository. A comment cites the docs/ section that describes the behaviour instead.
 *
 * Only comments are read: the TypeScript parser gives each token's comment trivia, so strings,
 * template literals, regular expressions and JSX text (`'#1 fan'`, `#lib/…` import aliases,
 * colours such as `#fff`, URL fragments) are never taken for a citation. Generated data files
 * (`*.data.ts`) are skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentsOf } from '../support/comments.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DIRS = ['functions', 'shared', 'web/src', 'infra', 'test'];
const ROOT_FILES = ['vitest.config.ts', 'eslint.config.js'];
const SKIP_DIRS = new Set(['node_modules', 'dist']);

/**
 * What a tracker citation looks like in a comment: the word issue(s) followed by a colon or a
 * hash, an issue number (`#12` after a space or at the start of a line), or the word issue and a
 * number.
 */
const CITATIONS: readonly RegExp[] = [
  /\bissues?\s*[:#]\s*\w/i,
  /(?:^|\s)#\d{1,4}\b/,
  /\bissues?\s+\d/i,
];

/**
 * What a citation of a paper outside the repository looks like in a comment: the product
 * specification (`spec 000 §5`, `Spec 001`) or the design and style notes (`DESIGN.md`,
 * `STYLE.md`).
 */
const OUTSIDE: readonly RegExp[] = [/\bspec\s+00\d\b/i, /\b(?:DESIGN|STYLE)\.md\b/];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...sourceFiles(path));
    } else if (/\.(?:ts|tsx|js)$/.test(entry.name) && !entry.name.endsWith('.data.ts')) {
      out.push(path);
    }
  }
  return out;
}

/**
 * `file:line: the comment's line` for each comment line of the file that matches one of
 * `patterns` (by default, a citation of an issue).
 */
function citationsIn(path: string, patterns: readonly RegExp[] = CITATIONS): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const out: string[] = [];
  for (const comment of commentsOf(path, text)) {
    comment.text.split('\n').forEach((line, i) => {
      if (patterns.some((re) => re.test(line))) {
        out.push(`${relative(ROOT, join(ROOT, path))}:${comment.line + i}: ${line.trim()}`);
      }
    });
  }
  return out;
}

describe('citations in comments', () => {
  it('finds issue labels and numbers in comments only', () => {
    const label = ['issue', ': accounts'].join('');
    const sample = [
      "import { db } from '#lib/db/index.ts';",
      "const colour = '#fff'; // a colour, not a citation",
      "const fan = '#1 fan'; const url = 'https://example.com/page#12';",
      `/** Sign-in attempts per account (${label} §2). */`,
      '// see #42',
      '/* issue 6 follow-up */',
      `const jsx = <p>${label}, not a comment</p>;`,
    ].join('\n');
    const lines = commentsOf('sample.tsx', sample)
      .filter((c) => CITATIONS.some((re) => re.test(c.text)))
      .map((c) => c.line);
    expect(lines).toEqual([4, 5, 6]);
  });

  it('cites docs/ sections or tests, never a closed issue', () => {
    const files = [...DIRS.flatMap(sourceFiles), ...ROOT_FILES];
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => citationsIn(file));
    expect(
      found,
      `These comments cite an issue, which a reader of the repository cannot open:\n` +
        `${found.join('\n')}\n` +
        `Cite the docs/ section that describes the behaviour instead, e.g. ` +
        `docs/security.md "Login throttling" (sections: grep -n "^#" docs/*.md), or the test ` +
        `that pins it, e.g. test/integration/auth.test.ts. If no doc describes it, add a ` +
        `sentence to the right docs/ section, or drop the citation when the comment reads ` +
        `fine without it.`,
    ).toEqual([]);
  });

  it('finds citations of the spec, DESIGN.md and STYLE.md in comments only', () => {
    const sample = [
      ['/** Titles (spec 000 §5). */', "const s = 'spec 000 §5';"].join('\n'),
      '// Spec 001',
      '// §2 continues the line above',
      '/* DESIGN.md §5 */',
      '/** STYLE.md "typed errors" */',
      "const route = { source: 'DESIGN.md §2' };",
      '// docs/editor.md "Editing rules"; RFC 6265bis §4.1.3.2',
    ].join('\n');
    const lines = commentsOf('sample.ts', sample)
      .filter((c) => OUTSIDE.some((re) => re.test(c.text)))
      .map((c) => c.line);
    expect(lines).toEqual([1, 3, 5, 6]);
  });

  it('cites docs/ sections, not the spec, DESIGN.md or STYLE.md', () => {
    const files = [...DIRS.flatMap(sourceFiles), ...ROOT_FILES];
    // This test names the papers in order to find them.
    const known = new Set(['test/unit/citations.test.ts']);
    const found = files
      .filter((file) => !known.has(file))
      .flatMap((file) => citationsIn(file, OUTSIDE));
    expect(
      found,
      `These comments cite a paper that is not in the repository:\n${found.join('\n')}\n` +
        `Cite the docs/ section that describes the behaviour instead, e.g. ` +
        `docs/editor.md "Editing rules" (sections: grep -n "^#" docs/*.md); if no doc describes ` +
        `it, add it to the right docs/ section, or drop the citation.`,
    ).toEqual([]);
  });
});
