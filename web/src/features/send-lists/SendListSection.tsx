import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { loadFailure } from '../../state/queryClient.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { cancelSendList, jobQuery, jobsQuery, type SendListJob } from './api.ts';
import { SendListDownload } from './SendListDownload.tsx';
import { SendListProgress } from './SendListProgress.tsx';
import { SendListReport } from './SendListReport.tsx';
import { SendListStartsAt } from './SendListStartsAt.tsx';
import { SendListUpload } from './SendListUpload.tsx';
import './send-lists.css';

/**
 * The export screen's "Pre-render a send list" section (docs/send-lists.md): upload a list,
 * watch it render, download its URLs. It shows the design's newest started job, or the one just
 * started, so reopening the screen picks up a list still rendering.
 */
export function SendListSection({
  designId,
  parameters,
}: {
  designId: string;
  /** The design's parameter names: the list's header. */
  parameters: readonly string[];
}) {
  const id = useId();
  const client = useQueryClient();
  const jobs = useQuery(jobsQuery(designId));
  const [startedId, setStartedId] = useState<string | null>(null);
  // An upload left unfinished (the window closed mid-upload) stays `uploading`: not shown.
  const shownId = startedId ?? jobs.data?.find((j) => j.state !== 'uploading')?.id ?? null;

  function started(job: SendListJob) {
    client.setQueryData(queryKeys.sendLists.job(designId, job.id), job);
    void client.invalidateQueries({ queryKey: queryKeys.sendLists.jobs(designId) });
    setStartedId(job.id);
  }

  return (
    <section className="send-list stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Pre-render a send list
      </h2>
      <p className="muted">
        Upload the list you are about to send to. Every row is rendered before the send, so the
        first opens of the campaign are already cached, and the list is checked: values too long,
        empty values that show the fallback, characters no font draws.
      </p>
      <SendListUpload
        designId={designId}
        parameters={parameters}
        maxRows={jobs.data?.[0]?.max_rows ?? null}
        onStarted={started}
      />
      {jobs.isPending && (
        <p role="status">
          <Spinner /> Looking for lists already sent to this screen…
        </p>
      )}
      {jobs.isError && (
        <Notice tone="error" title="Earlier lists could not be read">
          {loadFailure(jobs.error)}
        </Notice>
      )}
      {jobs.isSuccess && !shownId && (
        <p className="muted">No list pre-rendered for this design yet.</p>
      )}
      {shownId && <SendListJobView key={shownId} designId={designId} jobId={shownId} />}
    </section>
  );
}

/** One job, polled until it finishes: its report, progress, Cancel, and the download. */
function SendListJobView({ designId, jobId }: { designId: string; jobId: string }) {
  const client = useQueryClient();
  const job = useQuery(jobQuery(designId, jobId));
  const cancel = useMutation({
    mutationFn: () => cancelSendList(designId, jobId),
    onSuccess: (answer) => client.setQueryData(queryKeys.sendLists.job(designId, jobId), answer),
  });
  if (job.isPending)
    return (
      <p role="status">
        <Spinner /> Reading the list’s progress…
      </p>
    );
  if (job.isError)
    return (
      <Notice tone="error" title="The list’s progress could not be read">
        {loadFailure(job.error)}
      </Notice>
    );
  const data = job.data;
  return (
    <div className="send-list__job stack">
      <SendListReport job={data} />
      {data.state !== 'failed' && (
        <SendListProgress
          job={data}
          cancelling={cancel.isPending}
          onCancel={() => cancel.mutate()}
        />
      )}
      {cancel.isError && (
        <Notice tone="error" title="Not cancelled">
          {cancel.error.message}
        </Notice>
      )}
      {(data.state === 'done' ||
        data.state === 'cancelled' ||
        (data.state === 'failed' && data.total > 0)) && <SendListDownload job={data} />}
      {data.state !== 'cancelled' && data.state !== 'failed' && (
        <SendListStartsAt key={data.starts_at ?? ''} designId={designId} job={data} />
      )}
    </div>
  );
}
