import type { SendListJob } from './api.ts';
import { etaText, formatCount, handled, isFinished, progressText } from './model.ts';

const STATE_TEXT: Record<SendListJob['state'], string> = {
  uploading: 'Waiting for the file…',
  queued: 'Queued: rendering starts in a moment.',
  running: 'Pre-rendering…',
  done: 'Finished.',
  cancelled: 'Cancelled.',
  failed: 'Stopped: the list could not be pre-rendered.',
};

/** The counts shown under the bar, in order. */
const COUNTS = [
  ['Done', 'done'],
  ['Failed', 'failed'],
  ['Duplicates', 'duplicates'],
  ['Total', 'total'],
] as const;

/**
 * A job's progress (docs/send-lists.md): the bar (rows done or failed of the rows to render),
 * the counts, the ETA while it works, and Cancel. The text is a polite live region, so a screen
 * reader hears the counts as they change.
 */
export function SendListProgress({
  job,
  cancelling,
  onCancel,
}: {
  job: SendListJob;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const working = !isFinished(job.state);
  // Before the file is read the total is unknown: the bar has no value (indeterminate).
  const counting = working && job.total === 0;
  const text = counting ? 'Reading the list…' : progressText(job);
  return (
    <div className="send-list__progress stack">
      <progress
        className="send-list__bar"
        max={Math.max(1, job.total)}
        {...(counting ? {} : { value: handled(job) })}
        aria-label={`Pre-rendering ${job.file_name}`}
        aria-valuetext={text}
      />
      <div role="status" aria-live="polite" className="stack">
        <p>
          <strong>{STATE_TEXT[job.state]}</strong> {text}
          {working && job.state === 'running' && <> · {etaText(job.eta_seconds)}</>}
        </p>
        <dl className="send-list__counts">
          {COUNTS.map(([label, key]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd>{formatCount(job[key])}</dd>
            </div>
          ))}
        </dl>
      </div>
      {working && (
        <p>
          <button
            type="button"
            className="button button--secondary"
            onClick={onCancel}
            disabled={cancelling}
          >
            {cancelling ? 'Cancelling…' : 'Cancel pre-rendering'}
          </button>
        </p>
      )}
    </div>
  );
}
