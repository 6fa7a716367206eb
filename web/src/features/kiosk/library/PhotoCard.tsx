import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { KioskImage } from '#shared/contract/kiosk-packs.ts';
import { FormMessage, FormTextField } from '../../../components/FormFields.tsx';
import { applyServerErrors, submitWith } from '../../../lib/forms.ts';
import { saveLibraryTags, tagsOf, tagsText } from './api.ts';

/** The tag form: one text field, comma-separated (the server's rules: shared/contract). */
const TagsForm = z.object({
  tags: z.string().max(2000, 'The tags may not be greater than 2000 characters.'),
});
type TagsValues = z.infer<typeof TagsForm>;

/**
 * One photo of the global library: its thumbnail, title and credit, its tags as an editable
 * comma-separated field (Save tags), and Remove (the tab asks first).
 * @param onSaved gets the photo as the server answered it.
 */
export function PhotoCard({
  image,
  onSaved,
  onRemove,
}: {
  image: KioskImage;
  onSaved: (image: KioskImage) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm<TagsValues>({
    resolver: zodResolver(TagsForm),
    defaultValues: { tags: tagsText(image.tags) },
  });
  const onSubmit = submitWith(form, async (values) => {
    setSaved(null);
    try {
      const answer = await saveLibraryTags(image.id, tagsOf(values.tags));
      form.reset({ tags: tagsText(answer.image.tags) });
      setSaved(answer.message);
      onSaved(answer.image);
    } catch (error) {
      applyServerErrors(form.setError, error, ['tags']);
    }
  });

  return (
    <li className="picture-card" aria-labelledby={`${id}-title`}>
      <div className="picture-card__image">
        {image.thumb && <img src={image.thumb} alt="" loading="lazy" />}
      </div>
      <div className="picture-card__body">
        <h3 id={`${id}-title`} className="picture-card__title">
          {image.title}
        </h3>
        {image.author && (
          <p className="picture-card__credit muted">
            {image.author}
            {image.licence ? `, ${image.licence}` : ''}
          </p>
        )}
        <form className="stack" noValidate onSubmit={onSubmit}>
          <FormTextField
            control={form.control}
            field="tags"
            id={`${id}-tags`}
            label={`Tags of ${image.title}`}
            hint="Comma-separated."
            autoComplete="off"
            required={false}
          />
          <FormMessage control={form.control} />
          <div className="kiosk-library__actions">
            <button
              type="submit"
              className="button button--small"
              aria-disabled={form.formState.isSubmitting}
            >
              Save tags<span className="visually-hidden"> of {image.title}</span>
            </button>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={onRemove}
            >
              Remove<span className="visually-hidden"> {image.title}</span>
            </button>
          </div>
          <p className="small muted" role="status">
            {saved}
          </p>
        </form>
      </div>
    </li>
  );
}
