/**
 * docs/editor.md says only what the code does (docs/editor.md "Constants", "Messages"):
 * - every row of the Constants table names a constant (`file` `NAME.path`, `[]` mapping a list)
 *   whose value is the row's value, read by importing the module; a `.css` row names a rule the
 *   stylesheet holds, with the row's value in it;
 * - every message quoted in single quotes under Messages occurs in the source (web/src,
 *   functions, shared; tests aside), a `…` standing for words the code fills in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const EDITOR_DOC = readFileSync(join(ROOT, 'docs/editor.md'), 'utf8');

/** The text of a `## heading` section of the editor doc, up to the next `## `. */
function section(heading: string): string {
  const start = EDITOR_DOC.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/editor.md has no "## ${heading}" section`);
  const end = EDITOR_DOC.indexOf('\n## ', start + 4);
  return EDITOR_DOC.slice(start, end < 0 ? undefined : end);
}

/** One row of the Constants table. */
interface ConstantRow {
  name: string;
  value: unknown;
  file: string;
  /** `NAME.path` for a module, the rule's text for a stylesheet. */
  accessor: string;
}

/** The Constants table's rows (after its header and rule lines). */
function constantRows(): ConstantRow[] {
  const lines = section('Constants')
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2);
  return lines.map((line) => {
    const [name, value, code] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const spans = Array.from(code!.matchAll(/`([^`]+)`/g), (m) => m[1]!);
    if (spans.length !== 2) throw new Error(`"${name}": the code cell needs \`file\` \`NAME\``);
    return {
      name: name!,
      value: JSON.parse(value!) as unknown,
      file: spans[0]!,
      accessor: spans[1]!,
    };
  });
}

/** The value at `NAME.a.b` (or `NAME[].a`: each item's `a`) of a module's exports. */
function valueAt(exports: Record<string, unknown>, accessor: string): unknown {
  let value: unknown = exports;
  let mapped = false;
  for (const part of accessor.split('.')) {
    const each = part.endsWith('[]');
    const key = each ? part.slice(0, -2) : part;
    const read = (v: unknown) => (v as Record<string, unknown> | undefined)?.[key];
    value = mapped ? (value as unknown[]).map(read) : read(value);
    if (each) mapped = true;
  }
  return value;
}

describe('docs/editor.md "Constants"', () => {
  const rows = constantRows();

  it('is a table of at least forty constants', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    if (row.file.endsWith('.css')) {
      const css = readFileSync(join(ROOT, row.file), 'utf8');
      expect(css).toContain(row.accessor);
      expect(row.accessor).toContain(String(row.value));
      return;
    }
    const exports = (await import(join(ROOT, row.file))) as Record<string, unknown>;
    expect(valueAt(exports, row.accessor)).toEqual(row.value);
  });
});

/** A source's lines that are not comments (`//`, `/*`, and the `*` lines of a doc comment). */
const withoutComments = (source: string) =>
  source
    .split('\n')
    .filter((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line))
    .join('\n');

/** Every source file's text under the roots, tests aside (a few thousand files at most). */
function sources(): string[] {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        texts.push(withoutComments(readFileSync(path, 'utf8')));
      if (texts.length > 10_000)
        throw new Error(`more sources than expected under ${relative(ROOT, dir)}`);
    }
  };
  for (const root of ['web/src', 'functions', 'shared']) walk(join(ROOT, root));
  return texts;
}

/**
 * The messages quoted under Messages: text in single quotes, starting after a space or an
 * opening bracket (an apostrophe inside a word starts none) and ending before a space, a
 * punctuation mark or the line's end.
 */
function quotedMessages(): string[] {
  const text = section('Messages').replace(/\n\s*/g, ' ');
  return Array.from(
    text.matchAll(/(?<=[\s(])'([^']+(?:'[a-z][^']*)*)'(?=[\s,.;:)]|$)/g),
    (m) => m[1]!,
  );
}

describe('docs/editor.md "Messages"', () => {
  const messages = quotedMessages();
  const code = sources().join('\n');

  it('quotes the messages', () => {
    expect(messages).toContain('Delete Text Snippet?');
    expect(messages.length).toBeGreaterThanOrEqual(15);
  });

  it.each(messages)('%s', (message) => {
    for (const part of message
      .split('…')
      .map((p) => p.trim())
      .filter(Boolean))
      expect(code.includes(part), `"${part}" of '${message}' is in no source`).toBe(true);
  });
});
