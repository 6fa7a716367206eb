import { useEffect, useId, useRef, useState } from 'react';

type CopyResult = { tone: 'ok' | 'failed'; text: string } | null;

/** How long the "Copied" confirmation stays, in ms. */
const CONFIRMATION_MS = 2500;

/**
 * A read-only text field with a Copy button. The outcome ("Copied", or what to do when the
 * clipboard is not available) is shown next to the button and announced by a polite live
 * region that is always in the page, so screen readers hear it.
 */
export function CopyField({
  label,
  value,
  testId,
  what = 'URL',
}: {
  label: string;
  value: string;
  testId?: string;
  /** What the value is, for the "copy blocked" hint ("the URL is selected"). */
  what?: string;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<CopyResult>(null);

  useEffect(() => {
    if (!result) return;
    const timer = window.setTimeout(() => setResult(null), CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [result]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setResult({ tone: 'ok', text: 'Copied' });
    } catch {
      // No clipboard (insecure origin, denied permission): select the text for a manual copy.
      inputRef.current?.focus();
      inputRef.current?.select();
      setResult({
        tone: 'failed',
        text: `Copy blocked by the browser; the ${what} is selected, press Ctrl+C (⌘C on a Mac).`,
      });
    }
  }

  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="copy-field">
        <input
          ref={inputRef}
          id={id}
          className="input input--mono"
          type="text"
          value={value}
          readOnly
          spellCheck={false}
          data-testid={testId}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button--secondary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p
        className={`copy-field__status copy-field__status--${result?.tone ?? 'idle'}`}
        role="status"
        aria-live="polite"
      >
        {result && (
          <>
            <span aria-hidden="true">{result.tone === 'ok' ? '✓ ' : ''}</span>
            {result.text}
          </>
        )}
      </p>
    </div>
  );
}
