import { useEffect, useId, useRef, useState } from 'react';

/** How long "Copied" stays, ms. */
const COPIED_MS = 2500;

/**
 * One generated output (docs/export.md "The screen": "generated link and HTML, script output") in a
 * read-only box with a Copy button. The outcome is announced by a polite live region; when the
 * clipboard is blocked the text is selected for Ctrl+C instead. A link gets "Open in a new tab" as
 * well.
 */
export function CopyBlock({
  label,
  value,
  rows = 1,
  opens = false,
  testId,
}: {
  label: string;
  value: string;
  /** Lines of the box; 1 is a single-line field. */
  rows?: number;
  /** The value is a URL that may be opened (the direct link). */
  opens?: boolean;
  testId?: string;
}) {
  const id = useId();
  // "HTML" stays as written; "Direct link" reads "Copy direct link".
  const copyName = label === label.toUpperCase() ? label : label.toLowerCase();
  const box = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    if (!status) return;
    const timer = window.setTimeout(() => setStatus(null), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [status]);

  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setStatus({ ok: true, text: `${label} copied` }),
      () => {
        box.current?.focus();
        box.current?.select();
        setStatus({
          ok: false,
          text: 'The browser blocked copying: the text is selected, press Ctrl+C (⌘C on a Mac).',
        });
      },
    );

  const common = {
    id,
    ref: box,
    className: 'input input--mono export-output__box',
    value,
    readOnly: true,
    spellCheck: false,
    'data-testid': testId,
    onFocus: (event: { currentTarget: { select(): void } }) => event.currentTarget.select(),
  };
  return (
    <div className="field export-output">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {rows > 1 ? <textarea {...common} rows={rows} /> : <input {...common} type="text" />}
      <div className="export-output__actions">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => void copy()}
        >
          Copy {copyName}
        </button>
        {opens && (
          <a
            className="button button--secondary button--small"
            href={value}
            target="_blank"
            rel="noopener"
          >
            Open in a new tab<span className="visually-hidden"> (the {copyName})</span>
          </a>
        )}
        <p
          className={`copy-field__status copy-field__status--${status ? (status.ok ? 'ok' : 'failed') : 'idle'}`}
          role="status"
          aria-live="polite"
        >
          {status && (
            <>
              <span aria-hidden="true">{status.ok ? '✓ ' : ''}</span>
              {status.text}
            </>
          )}
        </p>
      </div>
    </div>
  );
}
