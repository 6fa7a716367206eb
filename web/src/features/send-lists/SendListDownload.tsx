import { useId, useState } from 'react';
import { providerList } from '#shared/providers/index.ts';
import { downloadPath, type SendListJob } from './api.ts';

/**
 * The ended job's result (docs/send-lists.md "The download"): the platform whose URL syntax the
 * CSV uses (the design's own by default, or plain URLs) and the link to the CSV of every row with its render URL and
 * its status.
 */
export function SendListDownload({
  job,
  designPlatform,
}: {
  job: SendListJob;
  designPlatform: string;
}) {
  const id = useId();
  const [platform, setPlatform] = useState(designPlatform);
  return (
    <div className="send-list__download">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-platform`}>
          URLs written for
        </label>
        <select
          id={`${id}-platform`}
          className="input input--select"
          value={platform}
          onChange={(e) => setPlatform(e.target.value)}
        >
          <option value="">Plain URLs</option>
          {providerList().map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <a
        className="button"
        href={downloadPath(job.design_id, job.id, platform)}
        download={`${job.file_name.replace(/\.[^.]*$/, '')}-urls.csv`}
      >
        Download the URLs (CSV)
      </a>
    </div>
  );
}
