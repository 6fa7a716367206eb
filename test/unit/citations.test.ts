/**
 * Comments cite what a reader of the repository can open: a section of docs/ (`docs/security.md
 * "Login throttling"`) or a test (`test/integration/auth.test.ts`). A citation of a tracker issue
 * (the word issue with a colon or a hash, an issue number) points at a thread that is closed and not in the
 * repository, so this test fails on one and names its file and line.
 *
 * Only comments are read: the TypeScript parser gives each token's comment trivia, so strings,
 * template literals, regular expressions and JSX text (`'#1 fan'`, `#lib/…` import aliases,
 * colours such as `#fff`, URL fragments) are never taken for a citation. Generated data files
 * (`*.data.ts`) are skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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

/** Every comment of a file with the line it starts on (1-based). */
function commentsOf(path: string, text: string): Array<{ line: number; text: string }> {
  const kind = path.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : path.endsWith('.js')
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const found: Array<{ line: number; text: string }> = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      found.push({
        line: file.getLineAndCharacterOfPosition(range.pos).line + 1,
        text: text.slice(range.pos, range.end),
      });
    }
  };
  // Comments live only in the trivia before a token (the end-of-file token included); a comment
  // on the same line as the previous token is that position's trailing range.
  const visit = (node: ts.Node) => {
    const children = node.getChildren(file);
    if (children.length === 0) {
      collect(ts.getLeadingCommentRanges(text, node.pos));
      collect(ts.getTrailingCommentRanges(text, node.pos));
      return;
    }
    for (const child of children) visit(child);
  };
  visit(file);
  return found.sort((a, b) => a.line - b.line);
}

/** `file:line: the comment's line` for each citation of an issue in the file's comments. */
function citationsIn(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const out: string[] = [];
  for (const comment of commentsOf(path, text)) {
    comment.text.split('\n').forEach((line, i) => {
      if (CITATIONS.some((re) => re.test(line))) {
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
    const found = files.flatMap(citationsIn);
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
});
