/**
 * A plain aligned text table for the benchmark's summary (console.table quotes strings).
 */

/**
 * Formats rows as an aligned table with a header and a rule; numbers are right-aligned.
 * @param columns the column titles, in order; a row's missing cell prints empty.
 */
export function formatTable(
  columns: readonly string[],
  rows: ReadonlyArray<Record<string, string | number>>,
): string {
  const cell = (row: Record<string, string | number>, c: string) => String(row[c] ?? '');
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
  const line = (values: string[], numeric: boolean[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const header = line(
    [...columns],
    columns.map(() => false),
  );
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  const body = rows.map((r) =>
    line(
      columns.map((c) => cell(r, c)),
      columns.map((c) => typeof r[c] === 'number'),
    ),
  );
  return [header, rule, ...body].join('\n');
}
