import { useId, useRef, useState, type ChangeEvent } from 'react';
import { apiUpload, call, type UploadProgress } from '../../api/client.ts';
import type { AnswerOf } from '#shared/contract/index.ts';
import { Notice } from '../../components/Notice.tsx';
import { UploadProgressBar } from '../../components/UploadProgressBar.tsx';
import { IMAGE_FILE_ACCEPT, imageFileProblem } from '../../components/imageFile.ts';
import type { TeamDetails } from '../../api/settings.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import './watermark.css';

type WatermarkAnswer = AnswerOf<'POST /settings/companies/{id}/watermark'>;

/**
 * `POST /settings/companies/{id}/watermark` (multipart field `watermark`), with upload progress.
 * @throws {ApiError} 422 with `errors.watermark` for a refused file.
 */
function uploadWatermark(
  teamId: string,
  file: File,
  onProgress: (progress: UploadProgress) => void,
): Promise<WatermarkAnswer> {
  const form = new FormData();
  form.append('watermark', file);
  return apiUpload<WatermarkAnswer>(
    `/settings/companies/${encodeURIComponent(teamId)}/watermark`,
    form,
    onProgress,
  );
}

/**
 * The company's watermark (docs/adr/0057-watermark.md "Watermark"; owner only): its logo, which
 * each design can show at its top left (the editor's "Show watermark"), at a quarter of its size
 * and half opacity. Choose replaces it; Remove takes it off every design that shows it. A PNG with
 * transparency looks best. Loading and failures are said in place.
 */
export function WatermarkSection({
  team,
  onChanged,
}: {
  team: TeamDetails;
  onChanged: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [removing, setRemoving] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const busy = progress !== null || removing;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    setMessage(null);
    if (!file) return;
    const problem = imageFileProblem(file, 'watermark');
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setProgress(0);
    try {
      await uploadWatermark(team.id, file, (p) => setProgress(p.total ? p.loaded / p.total : 0));
      onChanged();
      setMessage({ tone: 'success', text: 'The watermark was saved.' });
    } catch (error) {
      const err = error as { errors?: Record<string, string[]> };
      setMessage({ tone: 'error', text: err.errors?.watermark?.[0] ?? actionFailure(error) });
    } finally {
      setProgress(null);
    }
  }

  async function remove() {
    setMessage(null);
    setRemoving(true);
    try {
      await call('DELETE /settings/companies/{id}/watermark', { params: { id: team.id } });
      onChanged();
      setMessage({ tone: 'success', text: 'The watermark was removed.' });
    } catch (error) {
      setMessage({ tone: 'error', text: actionFailure(error) });
    } finally {
      setRemoving(false);
    }
  }

  return (
    <section className="settings-section stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Watermark
      </h2>
      <p id={`${id}-hint`} className="muted small">
        Your logo, shown at the top left of the designs that switch on “Show watermark” in the
        editor, at a quarter of its size and half opacity. PNG, JPG, GIF, WebP or BMP, up to 8 MB; a
        PNG with a transparent background looks best.
      </p>
      {team.watermark ? (
        <img
          className="watermark-preview"
          src={team.watermark.url}
          alt={`The watermark of ${team.name}`}
          width={Math.min(240, team.watermark.width)}
        />
      ) : (
        <p className="muted">No watermark yet.</p>
      )}
      <div className="watermark-section__actions">
        <button
          type="button"
          className="button button--secondary button--small"
          aria-disabled={busy}
          aria-describedby={`${id}-hint`}
          onClick={() => !busy && input.current?.click()}
        >
          {progress !== null
            ? 'Uploading…'
            : team.watermark
              ? 'Replace watermark'
              : 'Choose a watermark'}
        </button>
        <input
          ref={input}
          type="file"
          accept={IMAGE_FILE_ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Watermark image"
          onChange={(e) => void choose(e)}
        />
        {team.watermark && (
          <button
            type="button"
            className="button button--secondary button--small"
            aria-disabled={busy}
            onClick={() => !busy && void remove()}
          >
            {removing ? 'Removing…' : 'Remove watermark'}
          </button>
        )}
      </div>
      <UploadProgressBar progress={progress} />
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </section>
  );
}
