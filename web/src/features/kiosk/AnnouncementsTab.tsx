import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Announcement } from '#shared/contract/kiosk.ts';
import {
  createAnnouncement,
  deleteAnnouncement,
  fetchAnnouncements,
  kioskKeys,
  updateAnnouncement,
} from '../../api/kiosk.ts';
import { AnnouncementIcon } from '../../components/AnnouncementIcon.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { ActionNotice, type ActionMessage } from '../../components/ActionNotice.tsx';
import { actionFailure } from '../../lib/formFailure.ts';
import { LoadedList } from '../../components/LoadedList.tsx';
import { formatDate } from '../settings/ApiTokensSection.tsx';
import { AnnouncementForm } from './announcements/AnnouncementForm.tsx';
import type { KioskTabProps } from './tab.ts';
import './announcements/announcements.css';

/**
 * The kiosk's Announcements tab (docs/kiosk.md "Kiosk", docs/kiosk.md
 * "Announcements"): write one, and edit or delete those already sent, newest first. Users see
 * them in the notifications panel, which reads the same announcements; its cache is invalidated
 * by every change here (the `notifications` query family), so an edit shows there at once.
 */
export function AnnouncementsTab(_props: KioskTabProps) {
  const base = useId();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: kioskKeys.announcements,
    queryFn: ({ signal }) => fetchAnnouncements(signal),
  });
  const [message, setMessage] = useState<ActionMessage>();
  const [deleting, setDeleting] = useState<Announcement | null>(null);
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: kioskKeys.announcements });
    void queryClient.invalidateQueries({ queryKey: ['notifications'] });
  };
  const remove = useMutation({
    mutationFn: (a: Announcement) => deleteAnnouncement(a.id),
    onSuccess: (_answer, a) => {
      queryClient.setQueryData<Announcement[]>(kioskKeys.announcements, (old) =>
        old?.filter((x) => x.id !== a.id),
      );
      setMessage({ tone: 'success', text: 'The announcement was deleted.', focus: true });
      changed();
    },
    onError: (error) => setMessage({ tone: 'error', text: actionFailure(error) }),
    onSettled: () => setDeleting(null),
  });

  return (
    <section className="stack" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`} className="card__title">
        Announcements
      </h2>
      <p className="muted">
        Every user sees announcements in the notifications panel, newest first.
      </p>
      <div className="subcard">
        <AnnouncementForm
          submitLabel="Publish announcement"
          busyLabel="Publishing…"
          onSave={async (values) => {
            await createAnnouncement(values);
            setMessage({ tone: 'success', text: 'The announcement was published.' });
            changed();
          }}
        />
      </div>
      <h3 id={`${base}-sent`} className="settings-subtitle">
        Published
      </h3>
      <ActionNotice message={message} />
      <LoadedList
        query={list}
        loadingText="Loading announcements…"
        emptyText="No announcements yet."
        labelledBy={`${base}-sent`}
        testId="announcement-list"
      >
        {(a) => (
          <AnnouncementRow
            key={a.id}
            announcement={a}
            onSaved={() => {
              setMessage({ tone: 'success', text: 'The announcement was saved.' });
              changed();
            }}
            onDelete={() => setDeleting(a)}
          />
        )}
      </LoadedList>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this announcement?"
        confirmLabel="Delete announcement"
        pending={remove.isPending}
        onConfirm={() => {
          if (deleting && !remove.isPending) remove.mutate(deleting);
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>Users will no longer see it in their notifications. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

/** One published announcement as users see it, with Edit (in place) and Delete. */
function AnnouncementRow({
  announcement: a,
  onSaved,
  onDelete,
}: {
  announcement: Announcement;
  onSaved: () => void;
  onDelete: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const edited = a.updated_at !== a.created_at;
  if (editing) {
    return (
      <li className="item-list__item">
        <AnnouncementForm
          saved={a}
          submitLabel="Save"
          busyLabel="Saving…"
          onCancel={() => setEditing(false)}
          onSave={async (values) => {
            await updateAnnouncement(a.id, values);
            setEditing(false);
            onSaved();
          }}
        />
      </li>
    );
  }
  return (
    <li className="item-list__item announcement">
      <span className="announcement__icon">
        <AnnouncementIcon icon={a.icon} />
      </span>
      <div className="item-list__main">
        <Markdown>{a.body}</Markdown>
        {a.action_url && a.action_text && (
          <p>
            <a href={a.action_url} target="_blank" rel="noopener noreferrer">
              {a.action_text}
            </a>
          </p>
        )}
        <p className="muted item-list__meta">
          Published {formatDate(a.created_at)}
          {edited && ` · edited ${formatDate(a.updated_at)}`}
        </p>
      </div>
      <div className="item-list__actions">
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => setEditing(true)}
        >
          Edit
          <span className="visually-hidden"> the announcement of {formatDate(a.created_at)}</span>
        </button>
        <button type="button" className="button button--small button--danger" onClick={onDelete}>
          Delete
          <span className="visually-hidden"> the announcement of {formatDate(a.created_at)}</span>
        </button>
      </div>
    </li>
  );
}
