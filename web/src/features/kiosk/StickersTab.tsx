import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { PACK_MESSAGE_MS, PACK_MESSAGES, type KioskPack } from '#shared/contract/kiosk-packs.ts';
import { ListFooter } from '../../components/ListFooter.tsx';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { usePagedQuery } from '../../hooks/usePagedQuery.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { fetchPackPage, packKeys, setPackState } from './stickers/api.ts';
import { PackImport } from './stickers/PackImport.tsx';
import { useTimedMessage } from './stickers/useTimedMessage.ts';
import { ListState, SearchBox } from './stickers/ListParts.tsx';
import type { KioskTabProps } from './tab.ts';
import './kiosk-media.css';

/** How long typing rests before the list is searched, ms. */
const SEARCH_DELAY_MS = 300;

const packId = (pack: KioskPack) => pack.id;

/**
 * The kiosk's Sticker packs tab (docs/kiosk.md "Sticker packs", docs/accounts.md "Error answers in
 * the SPA"): every pack with its state, a search, Remove and Restore with the spec's four messages
 * (shown for 2 s in a polite live region), and the import of a pack archive.
 */
export function StickersTab(_props: KioskTabProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const list = usePagedQuery({
    queryKey: packKeys.list(search),
    fetchPage: (next: number | null, signal) => fetchPackPage(search, next ?? 1, signal),
    idOf: packId,
  });
  const { message, show } = useTimedMessage(PACK_MESSAGE_MS);
  const change = useMutation({
    mutationFn: ({ pack, to }: { pack: KioskPack; to: 'removed' | 'active' }) =>
      setPackState(pack.id, to),
    onSuccess: (answer) => {
      list.update((items) => items.map((p) => (p.id === answer.pack.id ? answer.pack : p)));
      show({ tone: 'success', text: answer.message });
      void queryClient.invalidateQueries({ queryKey: queryKeys.stickers.all, refetchType: 'none' });
    },
    onError: (_error, { to }) =>
      show({
        tone: 'error',
        text: to === 'removed' ? PACK_MESSAGES.notDeleted : PACK_MESSAGES.notRestored,
      }),
  });

  return (
    <div className="stack-lg">
      <PackImport />
      <section className="stack" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card__title">
          Sticker packs
        </h2>
        <SearchBox id={`${id}-search`} label="Search packs" value={text} onChange={setText} />
        <div className="kiosk-flash" aria-live="polite" aria-atomic="true">
          {message && (
            <p className={message.tone === 'error' ? 'flash flash--error' : 'flash'}>
              {message.text}
            </p>
          )}
        </div>
        <ListState
          list={list}
          loading="Loading packs…"
          empty={search ? `No pack matches “${search}”.` : 'There are no packs yet.'}
        >
          <ul className="item-list" aria-labelledby={`${id}-title`}>
            {list.items.map((pack) => (
              <PackRow
                key={pack.id}
                pack={pack}
                pending={change.isPending && change.variables?.pack.id === pack.id}
                onChange={(to) => !change.isPending && change.mutate({ pack, to })}
              />
            ))}
          </ul>
        </ListState>
        {list.items.length > 0 && (
          <ListFooter list={list} showEnd={false} moreLabel="Load more packs" />
        )}
      </section>
    </div>
  );
}

/** One pack: cover, name, count and credit, state, and the button that changes the state. */
function PackRow({
  pack,
  pending,
  onChange,
}: {
  pack: KioskPack;
  pending: boolean;
  onChange: (to: 'removed' | 'active') => void;
}) {
  const removed = pack.status === 'removed';
  return (
    <li className="item-list__item">
      <img className="kiosk-pack__cover" src={pack.cover_image} alt="" width={48} height={48} />
      <div className="item-list__main">
        <p className="item-list__name">
          {pack.pack_name}
          {removed && <span className="pill pill--muted">Removed</span>}
        </p>
        <p className="item-list__meta muted">
          {pack.sticker_count} stickers · {pack.attribution}
        </p>
      </div>
      <div className="item-list__actions">
        <button
          type="button"
          className={`button button--small ${removed ? 'button--secondary' : 'button--danger'}`}
          aria-disabled={pending}
          onClick={() => onChange(removed ? 'active' : 'removed')}
        >
          {removed ? 'Restore' : 'Remove'}
          <span className="visually-hidden"> {pack.pack_name}</span>
        </button>
      </div>
    </li>
  );
}
