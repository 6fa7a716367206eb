import { useId, useState } from 'react';
import { providerList } from '#shared/providers/index.ts';
import { downloadPath, type SendListJob } from './api.ts';

/**
 * The ended job's result (docs/send-lists.md "The download"): how the CSV writes its URLs (plain
 * by default: exactly the URLs pre-rendered; or in a platform's form) and the link to the CSV of
 * every row with its render URL and its status.
 */
export function SendListDownload({ job }: { job: SendListJob }) {
  const id = useId();
  const [platform, setPlatform] = useState('');
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
          aria-describedby={`${id}-hint`}
          onChange={(e) => setPlatform(e.target.value)}
        >
          <option value="">Plain URLs</option>
          {providerList().map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <p className="field__hint" id={`${id}-hint`}>
          Plain URLs are exactly the ones pre-rendered; a platform’s form may differ from them.
        </p>
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
