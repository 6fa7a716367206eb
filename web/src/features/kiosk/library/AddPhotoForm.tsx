import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { KioskImage } from '#shared/contract/kiosk-packs.ts';
import { FormMessage, FormTextField } from '../../../components/FormFields.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { FieldError } from '../../../components/TextField.tsx';
import { applyServerErrors, FORM_ERROR, submitWith } from '../../../lib/forms.ts';
import { addLibraryPhoto } from './api.ts';
import { UploadProgressBar } from '../../../components/UploadProgressBar.tsx';

/** Same cap as the server (functions/lib/uploads.ts MAX_IMAGE_BYTES), bytes. */
const MAX_BYTES = 8 * 1024 * 1024;
const ACCEPT =
  '.jpg,.jpeg,.png,.gif,.webp,.bmp,image/jpeg,image/png,image/gif,image/webp,image/bmp';

const AddForm = z.object({
  title: z.string().max(255, 'The title may not be greater than 255 characters.'),
  tags: z.string().max(2000, 'The tags may not be greater than 2000 characters.'),
});
type AddValues = z.infer<typeof AddForm>;

/**
 * Adds a photo to the global library (docs/kiosk.md "The global image library"): the file
 * (JPG, PNG, GIF, WebP or BMP, up to 8 MB; the server's upload checks decide), an optional
 * title (else the file name) and tags; upload progress shows while it is sent.
 * @param onAdded gets the new photo as the server answered it.
 */
export function AddPhotoForm({ onAdded }: { onAdded: (image: KioskImage) => void }) {
  const id = useId();
  const [chosen, setChosen] = useState<File | null>(null);
  /** Changes to empty the file input (a new input) after a photo was added. */
  const [fileInput, setFileInput] = useState(0);
  const focusFile = () => document.getElementById(`${id}-file`)?.focus();
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const form = useForm<AddValues>({
    resolver: zodResolver(AddForm),
    defaultValues: { title: '', tags: '' },
  });

  const onSubmit = submitWith(form, async (values) => {
    setAdded(null);
    setFileError(null);
    if (!chosen) {
      setFileError('Choose a photo to add.');
      focusFile();
      return;
    }
    if (chosen.size > MAX_BYTES) {
      setFileError('The photo may not be greater than 8 MB.');
      focusFile();
      return;
    }
    setProgress(0);
    try {
      const answer = await addLibraryPhoto(chosen, values, (p) =>
        setProgress(p.total ? p.loaded / p.total : 0),
      );
      form.reset();
      setChosen(null);
      setFileInput((n) => n + 1);
      setAdded(`${answer.message} (“${answer.image.title}”)`);
      onAdded(answer.image);
    } catch (error) {
      const outcome = applyServerErrors(form.setError, error, ['title', 'tags'], {
        formLevel: false,
      });
      const imageErrors = (error as { errors?: Record<string, string[]> }).errors?.image;
      if (imageErrors?.length) {
        setFileError(imageErrors.join(' '));
        focusFile();
      } else if (outcome.message) {
        form.setError(FORM_ERROR as 'root', { type: 'server', message: outcome.message });
      }
    } finally {
      setProgress(null);
    }
  });

  return (
    <form className="subcard stack" noValidate aria-labelledby={`${id}-title`} onSubmit={onSubmit}>
      <h3 id={`${id}-title`} className="settings-subtitle">
        Add a photo
      </h3>
      <div className="kiosk-library__add">
        <div className="field">
          <label htmlFor={`${id}-file`} className="field__label">
            Photo
          </label>
          <p id={`${id}-file-hint`} className="field__hint">
            JPG, PNG, GIF, WebP or BMP, up to 8 MB.
          </p>
          <input
            key={fileInput}
            id={`${id}-file`}
            type="file"
            accept={ACCEPT}
            className="input"
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${id}-file-hint${fileError ? ` ${id}-file-error` : ''}`}
            onChange={(e) => {
              setFileError(null);
              setChosen(e.target.files?.[0] ?? null);
            }}
          />
          {fileError && <FieldError id={`${id}-file-error`} errors={[fileError]} />}
        </div>
        <FormTextField
          control={form.control}
          field="title"
          id={`${id}-name`}
          label="Title"
          hint="Optional: the file name otherwise."
          autoComplete="off"
          required={false}
        />
        <FormTextField
          control={form.control}
          field="tags"
          id={`${id}-tags`}
          label="Tags"
          hint="Optional, separated by commas."
          autoComplete="off"
          required={false}
        />
      </div>
      <FormMessage control={form.control} />
      <div className="kiosk-library__actions">
        <button type="submit" className="button" aria-disabled={progress !== null}>
          {progress === null ? 'Add photo' : 'Adding…'}
        </button>
        <UploadProgressBar progress={progress} />
      </div>
      {added && <Notice tone="success">{added}</Notice>}
    </form>
  );
}
