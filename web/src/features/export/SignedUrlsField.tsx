import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { Notice } from '../../components/Notice.tsx';
import { actionFailure } from '../../lib/formFailure.ts';

/**
 * "Require signed URLs" on the export screen (docs/developer-api.md "Signed render URLs"): saved
 * at once by `PUT /api/pic-snippet/{id}/signing`; a failed save puts the box back and says why.
 * With it on, Generate signs the URL's parameter names (the names form); the unsigned preview
 * shows the design's fallback image.
 * @param required the setting as the screen holds it; `setRequired` changes it there.
 */
export function SignedUrlsField({
  idBase,
  designId,
  required,
  setRequired,
}: {
  idBase: string;
  designId: string;
  required: boolean;
  setRequired: (required: boolean) => void;
}) {
  const save = useMutation({
    mutationFn: (next: boolean) =>
      call('PUT /api/pic-snippet/{id}/signing', {
        params: { id: designId },
        body: { require_signed_urls: next },
      }),
    onMutate: (next) => setRequired(next),
    onError: (_error, next) => setRequired(!next),
  });
  return (
    <fieldset className="fieldset stack">
      <legend className="field__label">Signed URLs</legend>
      <label className="checkbox-row">
        <input
          type="checkbox"
          className="checkbox"
          checked={required}
          disabled={save.isPending}
          aria-describedby={`${idBase}-signed-hint`}
          onChange={(event) => save.mutate(event.target.checked)}
        />
        Require signed URLs
      </label>
      <p id={`${idBase}-signed-hint`} className="field__hint">
        Only URLs signed with your company’s secret draw this design; any other URL shows its
        fallback image. Make the secret in the company settings (Developer). Generate then signs the
        URL’s parameter names, so your platform can still fill in the values; the preview here is
        not signed. Web-page and video scripts add values in the visitor’s browser and cannot be
        signed.
      </p>
      {save.isPending && (
        <p className="muted" role="status">
          Saving…
        </p>
      )}
      {save.isSuccess && !save.isPending && (
        <p className="muted" role="status">
          {save.data.require_signed_urls
            ? 'Saved: only signed URLs draw this design.'
            : 'Saved: every URL draws this design.'}
        </p>
      )}
      {save.isError && <Notice tone="error">{actionFailure(save.error)}</Notice>}
    </fieldset>
  );
}
