import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { KioskImage } from '#shared/contract/kiosk-packs.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { usePagedQuery } from '../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { ListFooter } from '../../components/ListFooter.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { fetchLibraryPage, libraryKeys, removeLibraryPhoto } from './library/api.ts';
import { AddPhotoForm } from './library/AddPhotoForm.tsx';
import { PhotoCard } from './library/PhotoCard.tsx';
import { ListState, SearchBox } from './stickers/ListParts.tsx';
import type { KioskTabProps } from './tab.ts';
import './kiosk-media.css';

/** How long typing rests before the list is searched, ms. */
const SEARCH_DELAY_MS = 300;

const imageId = (image: KioskImage) => image.id;

/**
 * The kiosk's Image library tab (docs/kiosk.md "global image library"; docs/kiosk.md "The global
 * image library"): add a photo, search the library by title and tag, edit each photo's tags,
 * remove a photo (after a confirmation; designs that use it keep drawing it).
 */
export function LibraryTab(_props: KioskTabProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = usePagedQuery({
    queryKey: libraryKeys.list(search),
    fetchPage: (next: number | null, signal) => fetchLibraryPage(search, next ?? 1, signal),
    idOf: imageId,
  });
  const [removing, setRemoving] = useState<KioskImage | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  /** The pickers' library lists are read again when next shown. */
  const pickersStale = () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.images.all, refetchType: 'none' });
  const remove = useMutation({
    mutationFn: (image: KioskImage) => removeLibraryPhoto(image.id),
    onSuccess: (answer, image) => {
      list.update((items) => items.filter((i) => i.id !== image.id));
      setOutcome({ tone: 'success', text: `“${image.title}”: ${answer.message}` });
      pickersStale();
    },
    onError: (error) => setOutcome({ tone: 'error', text: actionFailure(error) }),
    onSettled: () => setRemoving(null),
  });

  return (
    <div className="stack-lg">
      <AddPhotoForm
        onAdded={(image) => {
          if (!search) list.update((items) => [image, ...items]);
          pickersStale();
        }}
      />
      <section className="stack" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card__title">
          Global image library
        </h2>
        <SearchBox
          id={`${id}-search`}
          label="Search by title or tag"
          value={text}
          onChange={setText}
        />
        {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
        <ListState
          list={list}
          loading="Loading photos…"
          empty={search ? `No photo matches “${search}”.` : 'The library has no photos yet.'}
        >
          <ul className="picture-grid" aria-labelledby={`${id}-title`}>
            {list.items.map((image) => (
              <PhotoCard
                key={image.id}
                image={image}
                onSaved={(next) => {
                  list.update((items) => items.map((i) => (i.id === next.id ? next : i)));
                  pickersStale();
                }}
                onRemove={() => {
                  setOutcome(null);
                  setRemoving(image);
                }}
              />
            ))}
          </ul>
        </ListState>
        {list.items.length > 0 && (
          <ListFooter list={list} showEnd={false} moreLabel="Load more photos" />
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this photo from the library?"
        confirmLabel="Remove photo"
        pending={remove.isPending}
        onConfirm={() => removing && !remove.isPending && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          “{removing?.title}” will no longer be offered to anyone. Designs that already use it keep
          drawing it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
