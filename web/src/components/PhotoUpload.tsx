import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { UploadProgress } from '../api/client.ts';
import { Notice } from './Notice.tsx';
import { UploadProgressBar } from './UploadProgressBar.tsx';
import { IMAGE_FILE_ACCEPT, imageFileProblem } from './imageFile.ts';

/**
 * A profile or team photo with a "Choose a new photo" control: shows the current photo (or the
 * initials), previews the chosen file at once, shows upload progress, and the server's message
 * on failure (the old photo comes back). docs/adr/0044-the-api-contract.md "The API contract" photo
 * calls; docs/accounts.md "Validation rules": "Photo upload needs a file chosen" (the upload starts
 * only once a file is chosen).
 *
 * @param upload sends the file, reporting progress (bytes), and resolves to the new photo URL.
 */
export function PhotoUpload({
  label,
  name,
  photoUrl,
  upload,
  onUploaded,
}: {
  label: string;
  /** Whose photo (for the initials and the image's alt text). */
  name: string;
  photoUrl: string | null;
  upload: (file: File, onProgress: (p: UploadProgress) => void) => Promise<string>;
  onUploaded?: (url: string) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    setMessage(null);
    if (!file) return;
    const problem = imageFileProblem(file, 'photo');
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      const url = await upload(file, (p) => setProgress(p.total ? p.loaded / p.total : 0));
      setUploaded(url);
      setPreview(null);
      onUploaded?.(url);
      setMessage({ tone: 'success', text: 'Your photo was saved.' });
    } catch (error) {
      setPreview(null);
      const err = error as { errors?: Record<string, string[]>; message?: string };
      setMessage({ tone: 'error', text: err.errors?.photo?.[0] ?? err.message ?? String(error) });
    } finally {
      setProgress(null);
    }
  }

  const shown = preview ?? uploaded ?? photoUrl;
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

  return (
    <div className="photo-upload" role="group" aria-labelledby={`${id}-label`}>
      <div className="photo-upload__image" aria-hidden={shown ? undefined : true}>
        {shown ? <img src={shown} alt={`${label} of ${name}`} /> : <span>{initials || '?'}</span>}
      </div>
      <div className="stack">
        <p id={`${id}-label`} className="photo-upload__label">
          {label}
        </p>
        <div>
          <button
            type="button"
            className="button button--secondary button--small"
            aria-disabled={progress !== null}
            aria-describedby={`${id}-hint`}
            onClick={() => progress === null && input.current?.click()}
          >
            {progress === null ? 'Choose a new photo' : 'Uploading…'}
          </button>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept={IMAGE_FILE_ACCEPT}
            className="visually-hidden"
            tabIndex={-1}
            aria-label={label}
            onChange={(e) => void choose(e)}
          />
        </div>
        <p id={`${id}-hint`} className="muted small">
          JPG, PNG, GIF, WebP or BMP, up to 8 MB. It is cropped to a square.
        </p>
        <UploadProgressBar progress={progress} />
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
      </div>
    </div>
  );
}
