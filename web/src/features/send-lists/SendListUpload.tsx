import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { UploadProgressBar } from '../../components/UploadProgressBar.tsx';
import { isApiError } from '../../api/client.ts';
import { uploadSendList, type SendListJob } from './api.ts';
import { fileSize, formatCount, SEND_LIST_ACCEPT, sendListFormat, startsAtValue } from './model.ts';
import { PARTIAL_START, StartsAtField } from './SendListStartsAt.tsx';

/**
 * The send list's file picker (docs/send-lists.md): a CSV or XLSX file, its header described
 * by the design's parameters, the plan's row limit when known, the upload's progress, and the
 * API's refusal as it says it. Submitting creates the job, uploads the file and starts it.
 */
export function SendListUpload({
  designId,
  parameters,
  maxRows,
  onStarted,
}: {
  designId: string;
  parameters: readonly string[];
  /** The plan's row limit, from a job of this design (null before the first list). */
  maxRows: number | null;
  onStarted: (job: SendListJob) => void;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  /** The campaign start as typed (`datetime-local`, read as UTC) and its error. */
  const [startsAt, setStartsAt] = useState('');
  const [startsAtError, setStartsAtError] = useState<string | null>(null);
  const [startsAtPartial, setStartsAtPartial] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  /** Bumped to empty the file input once a list has started. */
  const [picker, setPicker] = useState(0);
  const upload = useMutation({
    mutationFn: ({
      chosen,
      format,
      start,
    }: {
      chosen: File;
      format: 'csv' | 'xlsx';
      start: string | null;
    }) => uploadSendList(designId, chosen, format, setProgress, start),
    onSuccess: (job) => {
      setFile(null);
      setStartsAt('');
      setPicker((n) => n + 1);
      onStarted(job);
    },
    onSettled: () => setProgress(null),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setPickError('Choose a CSV or XLSX file first.');
    const format = sendListFormat(file.name);
    if (!format) return setPickError(`“${file.name}” is not a .csv or .xlsx file.`);
    setPickError(null);
    if (startsAtPartial) return setStartsAtError(PARTIAL_START);
    const start = startsAtValue(startsAt);
    if (start !== null && typeof start === 'object') return setStartsAtError(start.error);
    upload.mutate({ chosen: file, format, start });
  }

  // The API's refusal of the start is shown on its field, any other under the file.
  const refusedStart = upload.error && isApiError(upload.error) && upload.error.errors?.starts_at;
  const error = pickError ?? (upload.error && !refusedStart ? upload.error.message : null);
  const hint = `${id}-hint`;
  return (
    <form className="stack" onSubmit={submit} noValidate aria-busy={upload.isPending}>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>
          Send list (CSV or XLSX)
        </label>
        <p className="field__hint" id={hint}>
          {parameters.length > 0 ? (
            <>
              The first row names the columns: <strong>{parameters.join(', ')}</strong>, and
              optionally <strong>email</strong>. One recipient per row.
            </>
          ) : (
            'This design has no parameters: every recipient sees the same image.'
          )}{' '}
          {maxRows === null
            ? 'Your plan’s row limit is checked when the list is read.'
            : `Your plan allows up to ${formatCount(maxRows)} rows per list.`}
        </p>
        <input
          key={picker}
          id={`${id}-file`}
          type="file"
          accept={SEND_LIST_ACCEPT}
          aria-describedby={error ? `${hint} ${id}-error` : hint}
          aria-invalid={error ? true : undefined}
          disabled={upload.isPending}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setPickError(null);
            upload.reset();
          }}
        />
        {file && !upload.isPending && (
          <p className="muted small">
            {file.name}, {fileSize(file.size)}
          </p>
        )}
      </div>
      <StartsAtField
        value={startsAt}
        onChange={(value, partial) => {
          setStartsAt(value);
          setStartsAtPartial(partial);
          setStartsAtError(null);
          upload.reset();
        }}
        error={startsAtError ?? (refusedStart ? refusedStart[0]! : null)}
        disabled={upload.isPending}
      />
      {error && (
        <div id={`${id}-error`}>
          <Notice tone="error" title="The list was not accepted">
            {error}
          </Notice>
        </div>
      )}
      {upload.isPending && (
        <div className="send-list__uploading" role="status">
          <UploadProgressBar progress={progress ?? 0} />
          <span>Uploading {file?.name}…</span>
        </div>
      )}
      <p>
        <button type="submit" className="button" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload and pre-render'}
        </button>
      </p>
    </form>
  );
}
