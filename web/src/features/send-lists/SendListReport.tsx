import { Notice } from '../../components/Notice.tsx';
import type { SendListJob } from './api.ts';
import { formatCount } from './model.ts';

/** One line of the report, in the singular or plural, left out when its count is 0. */
function Line({ count, one, many }: { count: number; one: string; many: string }) {
  if (count === 0) return null;
  return (
    <li>
      <strong>{formatCount(count)}</strong> {count === 1 ? one : many}
    </li>
  );
}

type Report = NonNullable<SendListJob['report']>;

/** The report's lines: a count, and what it counts in the singular and plural. */
const lines = (r: Report): [number, string, string][] => [
  [
    r.fallback_rows,
    'row shows the fallback (an empty value)',
    'rows show the fallback (an empty value)',
  ],
  [r.cut_rows, 'row had a value cut to 255 characters', 'rows had a value cut to 255 characters'],
  [
    r.undrawable_rows,
    'row has characters that no font of the design draws',
    'rows have characters that no font of the design draws',
  ],
  [
    r.formula_values,
    'value starts like a spreadsheet formula (escaped in the download)',
    'values start like a spreadsheet formula (escaped in the download)',
  ],
  [r.skipped_empty_rows, 'empty row skipped', 'empty rows skipped'],
];

/**
 * What the file held and what its rows show (docs/send-lists.md): rows read, empty rows
 * skipped, unknown columns, values cut to 255 characters, formula-like values (escaped in the
 * download), and once rendered the rows that show the fallback, were cut, or have characters no
 * font draws. A refused file shows the server's message, which names the line.
 */
export function SendListReport({ job }: { job: SendListJob }) {
  if (job.state === 'failed' && job.error)
    return (
      <Notice tone="error" title={`“${job.file_name}” was not pre-rendered`}>
        {job.error}
      </Notice>
    );
  const report = job.report;
  if (!report) return null; // not read yet: the progress says so
  const clean =
    report.skipped_empty_rows +
      report.unknown_columns.length +
      report.cut_values +
      report.formula_values +
      report.fallback_rows +
      report.undrawable_rows ===
    0;
  return (
    <div className="stack">
      <p>
        “{job.file_name}”: {formatCount(report.rows)} {report.rows === 1 ? 'row' : 'rows'} read.{' '}
        {clean &&
          (job.state === 'done'
            ? 'No row shows the fallback, no value was cut, and every character is drawn.'
            : 'Nothing to report so far.')}
      </p>
      {!clean && (
        <ul className="send-list__report">
          {lines(report).map(([count, one, many]) => (
            <Line key={one} count={count} one={one} many={many} />
          ))}
          {report.unknown_columns.length > 0 && (
            <li>
              Columns ignored (not parameters of this design):{' '}
              {report.unknown_columns.map((c) => `“${c}”`).join(', ')}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
