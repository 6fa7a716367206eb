import { useEffect, useRef, type ReactNode } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { CopyField } from '../../components/CopyField.tsx';

/**
 * A secret shown once (an API token, a render signing secret, a webhook secret): a success
 * notice that takes focus when it appears, so keyboard and screen-reader users land on it, the
 * value in a copy field, and "I have stored it", which hides it for good.
 * @param what the copy field's noun ("token", "secret") for its button and messages
 */
export function ShownOnce({
  title,
  children,
  label,
  value,
  what,
  testId,
  onDone,
}: {
  title: string;
  /** What to do with it, above the field. */
  children: ReactNode;
  label: string;
  value: string;
  what: string;
  testId: string;
  onDone: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} className="focus-target">
      <Notice tone="success" title={title}>
        <div className="stack">
          <p>{children}</p>
          <CopyField label={label} value={value} what={what} testId={testId} />
          <div>
            <button type="button" className="button button--small" onClick={onDone}>
              I have stored it
            </button>
          </div>
        </div>
      </Notice>
    </div>
  );
}
