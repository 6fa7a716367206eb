import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { PACK_ARCHIVE_LIMITS, PACK_IMPORT_MESSAGES } from '#shared/contract/kiosk-packs.ts';
import { isApiError } from '../../../api/client.ts';
import { Notice } from '../../../components/Notice.tsx';
import { queryKeys } from '../../../state/queryKeys.ts';
import { actionFailure } from '../../../lib/formFailure.ts';
import { importPackArchive } from './api.ts';
import { UploadProgressBar } from '../../../components/UploadProgressBar.tsx';

const MAX_MB = PACK_ARCHIVE_LIMITS.archiveBytes / 1024 / 1024;

/**
 * Imports a sticker pack from a zip archive (docs/kiosk.md `POST /packs/download`; docs/kiosk.md
 * "Sticker packs"): choosing the file starts the upload, a progress bar shows the bytes sent,
 * then the outcome: the new pack's name, or every reason the server gave for refusing it.
 * The server checks everything; the name and size are checked here only to spare a round trip.
 */
export function PackImport() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; lines: string[] } | null>(
    null,
  );

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    setOutcome(null);
    if (!file) return;
    if (!/\.zip$/i.test(file.name)) {
      setOutcome({ tone: 'error', lines: ['Choose a .zip archive.'] });
      return;
    }
    if (file.size > PACK_ARCHIVE_LIMITS.archiveBytes) {
      setOutcome({ tone: 'error', lines: [PACK_IMPORT_MESSAGES.tooLarge] });
      return;
    }
    setProgress(0);
    try {
      const answer = await importPackArchive(file, (p) =>
        setProgress(p.total ? p.loaded / p.total : 0),
      );
      setOutcome({
        tone: 'success',
        lines: [
          `${answer.message} “${answer.pack.pack_name}” has ${answer.pack.sticker_count} stickers.`,
        ],
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stickers.all });
    } catch (error) {
      const reasons = isApiError(error) ? error.errors?.archive : undefined;
      setOutcome({ tone: 'error', lines: reasons?.length ? reasons : [actionFailure(error)] });
    } finally {
      setProgress(null);
    }
  }

  return (
    <section className="subcard stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="settings-subtitle">
        Import a pack
      </h3>
      <p id={`${id}-hint`} className="muted small">
        A .zip of up to {MAX_MB} MB with SVG or PNG stickers and a <code>manifest.json</code> at its
        top level:{' '}
        <code>
          {'{ "name", "attribution", "cover"?, "stickers": [{ "file", "name", "tags"? }] }'}
        </code>
        . SVGs with scripts, embedded files or outside references are refused.
      </p>
      <div>
        <button
          type="button"
          className="button button--secondary"
          aria-disabled={progress !== null}
          aria-describedby={`${id}-hint`}
          onClick={() => progress === null && input.current?.click()}
        >
          {progress === null ? 'Choose a pack archive' : 'Importing…'}
        </button>
        <input
          ref={input}
          type="file"
          accept=".zip,application/zip"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Pack archive"
          onChange={(e) => void choose(e)}
        />
      </div>
      <UploadProgressBar progress={progress} />
      {outcome && (
        <Notice tone={outcome.tone}>
          {outcome.lines.length === 1 ? (
            outcome.lines[0]
          ) : (
            <ul>
              {outcome.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </Notice>
      )}
    </section>
  );
}
