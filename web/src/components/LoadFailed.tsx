import { Notice } from './Notice.tsx';

/**
 * A list or page that could not be loaded: what failed, why (docs/accounts.md "Error answers in the
 * SPA": the server's message, else the generic one) and a Retry button. An alert, so it is
 * announced at once.
 */
export function LoadFailed({
  title,
  message,
  onRetry,
}: {
  title?: string;
  message: string | null;
  onRetry: () => void;
}) {
  return (
    <Notice tone="error" title={title}>
      <div className="design-list__error">
        <span>{message}</span>
        <button type="button" className="button button--small button--secondary" onClick={onRetry}>
          Retry
        </button>
      </div>
    </Notice>
  );
}
