/**
 * Every `docs/<name>.md "<text>"` citation in a comment points at something a reader can find.
 *
 * Which files: the tracked (`git ls-files`) `.ts`, `.tsx`, `.js` and `.mjs` files under
 * functions/, shared/, infra/, web/src/ and test/, generated data files (`*.data.ts`) skipped.
 * Only comments are read (test/support/comments.ts), so strings and JSX text are never citations.
 *
 * A decision record is cited the same way: `docs/adr/<NNNN-name>.md "<heading>"`.
 *
 * How a citation is found: a comment's lines are joined into one line (the `/**`, `*`, `//` and
 * `*\/` markers dropped; `//` comments on consecutive lines make one block) and its whitespace is
 * collapsed, so a quote that wraps across comment lines is read whole. A citation is `docs/`, a
 * file name, `.md`, at most three spaces and the first double-quoted text right after it (1–200
 * characters). A second quote after a colon (`docs/<file>.md "Section": "phrase"`) and a bare
 * `docs/<file>.md` are not checked.
 *
 * The rule: the doc exists, and the quoted text is
 * - a section name of the doc: a heading (`#` … `######`) or a paragraph's bold lead
 *   (`**Seats**`, `- **Feedback.**`), its text trimmed: equal to it, or its start followed by
 *   ` (`, `:`, ` —`, ` –` or `,` — so "Flows" names `## Flows (…)` and "Kiosk" names
 *   `## Kiosk: who opens it, and its tabs`, but "Shopify" does not name `## Shopify Email (…)`;
 * - or, when it has at least three words, a phrase that occurs verbatim, case included, in the
 *   doc's text once whitespace is collapsed and the inline markup characters `` ` ``, `*` and `_`
 *   are dropped from both sides (a quote of a sentence within a section, e.g. docs/editor.md
 *   "Nothing the user typed is dropped"). One or two words name a section: "Kiosk" is not
 *   accepted just because the word occurs somewhere in docs/kiosk.md.
 * Failures list `file:line` of the line the citation starts on, and the citation.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentsOf, type SourceComment } from '../support/comments.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DIRS = ['functions', 'shared', 'infra', 'web/src', 'test'];
/** The citation: doc name, then the quoted text (bounded, no nested quantifiers: linear). */
const CITATION = /docs\/((?:adr\/)?[A-Za-z0-9_-]{1,80})\.md {0,3}"([^"]{1,200})"/g;
/** Fewer words than this name a section, so they must be a heading ("Kiosk" is not a phrase). */
const MIN_PHRASE_WORDS = 3;
/** A heading's start is a whole name when one of these follows it. */
const QUALIFIERS = [' (', ':', ' —', ' –', ','];

interface Citation {
  line: number;
  doc: string;
  text: string;
}

/** A comment line without its comment markers. */
function stripMarkers(line: string): string {
  return line
    .replace(/^\s{0,200}(?:\/\*\*?|\*\/|\*|\/\/)?/, '')
    .replace(/\*\/\s{0,200}$/, '')
    .trim();
}

/** Whitespace collapsed to one space. */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Inline markdown markup dropped (backticks, emphasis), then whitespace collapsed. */
const plain = (s: string) => squash(s.replace(/[`*_]/g, ''));

/**
 * The citations in a file's comments, each with the line its `docs/` starts on. Consecutive `//`
 * comments are joined into one block first.
 */
export function citationsIn(comments: readonly SourceComment[]): Citation[] {
  // Blocks of [line, text] pieces; a `//` comment on the line after the last piece continues it.
  const blocks: Array<Array<{ line: number; text: string }>> = [];
  let lastLine = -2;
  let lastWasLine = false;
  for (const comment of comments) {
    const isLine = comment.text.startsWith('//');
    const pieces = comment.text
      .split('\n')
      .map((text, i) => ({ line: comment.line + i, text: stripMarkers(text) }));
    if (isLine && lastWasLine && comment.line === lastLine + 1) blocks.at(-1)!.push(...pieces);
    else blocks.push(pieces);
    lastLine = comment.line + pieces.length - 1;
    lastWasLine = isLine;
  }
  const out: Citation[] = [];
  for (const pieces of blocks) {
    let joined = '';
    const starts: Array<{ at: number; line: number }> = [];
    for (const piece of pieces) {
      if (piece.text === '') continue;
      starts.push({ at: joined.length, line: piece.line });
      joined += `${piece.text} `;
    }
    for (const match of joined.matchAll(CITATION)) {
      const start = starts.findLast((s) => s.at <= match.index);
      out.push({ line: start?.line ?? pieces[0]!.line, doc: match[1]!, text: squash(match[2]!) });
    }
  }
  return out;
}

/** A doc's headings (text trimmed) and its plain text, read once. */
const docs = new Map<string, { headings: string[]; text: string } | null>();
function docOf(name: string) {
  if (!docs.has(name)) {
    const path = join(ROOT, 'docs', `${name}.md`);
    if (!existsSync(path)) docs.set(name, null);
    else {
      const source = readFileSync(path, 'utf8');
      const headings = source
        .split('\n')
        .map(
          (line) =>
            /^#{1,6} (.{1,300})$/.exec(line)?.[1]?.trim() ??
            /^(?:- )?\*\*([^*]{1,120}?)\.?\*\*/.exec(line)?.[1]?.trim(),
        )
        .filter((h): h is string => h !== undefined);
      docs.set(name, { headings, text: plain(source) });
    }
  }
  return docs.get(name)!;
}

/** Why a citation dangles, or null when it names a heading or a phrase of the doc. */
export function problemOf(citation: Citation): string | null {
  const doc = docOf(citation.doc);
  if (!doc) return `docs/${citation.doc}.md does not exist`;
  const names = (heading: string) =>
    heading === citation.text ||
    QUALIFIERS.some((q) => heading.startsWith(citation.text + q)) ||
    plain(heading) === plain(citation.text);
  if (doc.headings.some(names)) return null;
  const phrase = plain(citation.text);
  if (phrase.split(' ').length >= MIN_PHRASE_WORDS && doc.text.includes(phrase)) return null;
  return `no heading or phrase "${citation.text}" in docs/${citation.doc}.md`;
}

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...DIRS], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split('\0')
    .filter((p) => /\.(?:ts|tsx|js|mjs)$/.test(p) && !p.endsWith('.data.ts'))
    .filter((p) => existsSync(join(ROOT, p)));
}

describe('docs/ citations in comments', () => {
  it('joins a quote that wraps across comment lines and checks it', () => {
    const sample = [
      '/**',
      ' * Throttled (docs/security.md',
      ' * "Login',
      ' * throttling"), see docs/none.md "Nothing".',
      ' */',
      '// Two-line comment: docs/editor.md',
      '// "Made up heading"',
      'const s = \'docs/editor.md "In a string"\';',
    ].join('\n');
    const found = citationsIn(commentsOf('sample.ts', sample));
    expect(found).toEqual([
      { line: 2, doc: 'security', text: 'Login throttling' },
      { line: 4, doc: 'none', text: 'Nothing' },
      { line: 6, doc: 'editor', text: 'Made up heading' },
    ]);
    expect(found.map(problemOf)).toEqual([
      null,
      'docs/none.md does not exist',
      'no heading or phrase "Made up heading" in docs/editor.md',
    ]);
  });

  it('cites only docs/ sections and phrases that exist', () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(100);
    const dangling: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const citation of citationsIn(commentsOf(file, text))) {
        checked += 1;
        const problem = problemOf(citation);
        if (problem) {
          dangling.push(
            `${file}:${citation.line}: docs/${citation.doc}.md "${citation.text}" — ${problem}`,
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(
      dangling,
      `These comments cite a docs/ section or phrase that is not there:\n${dangling.join('\n')}\n` +
        `Correct the citation to the section's heading (grep -n "^#" docs/*.md) or add the ` +
        `section to the doc.`,
    ).toEqual([]);
  });
});
