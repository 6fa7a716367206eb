/**
 * The comments of a TypeScript or JavaScript source file, read through the TypeScript parser so
 * that strings, template literals, regular expressions and JSX text are never taken for comment
 * text (test/unit/citations.test.ts, test/unit/docs-citations.test.ts).
 */
import ts from 'typescript';

/** A comment of a file: the line it starts on (1-based) and its text, markers included. */
export interface SourceComment {
  line: number;
  text: string;
}

/** Every comment of a file (`path` picks TS, TSX or JS) with the line it starts on, in order. */
export function commentsOf(path: string, text: string): SourceComment[] {
  const kind = path.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : path.endsWith('.js')
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const found: SourceComment[] = [];
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
