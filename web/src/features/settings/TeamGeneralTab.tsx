import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { deleteTeam, renameTeam, type TeamDetails } from '../../api/settings.ts';
import { ConfirmDialog } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useAppStore } from '../../state/store.ts';
import { actionFailure, formFailure } from './formFailure.ts';
import { SubmitButton, focusFirstInvalid } from './ProfileTab.tsx';

/** Team settings, "companies" tab: the name (owner renames) and deleting the team. */
export function TeamGeneralTab({
  team,
  isOwner,
  onChanged,
}: {
  team: TeamDetails;
  isOwner: boolean;
  onChanged: () => void;
}) {
  const base = useId();
  const navigate = useNavigate();
  const refreshSession = useAppStore((s) => s.refreshSession);
  const [name, setName] = useState(team.name);
  const [errors, setErrors] = useState<string[] | undefined>();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function rename(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    setMessage(null);
    setErrors(undefined);
    setPending(true);
    try {
      await renameTeam(team.id, name.trim());
      setMessage({ tone: 'success', text: 'The company name was saved.' });
      onChanged();
    } catch (error) {
      const failure = formFailure(error, ['name'] as const);
      setErrors(failure.fields.name);
      if (failure.message) setMessage({ tone: 'error', text: failure.message });
      focusFirstInvalid(base);
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await deleteTeam(team.id);
      await refreshSession();
      navigate('/settings#/companies');
    } catch (error) {
      setConfirming(false);
      setMessage({ tone: 'error', text: actionFailure(error) });
    } finally {
      setDeleting(false);
    }
  }

  if (!isOwner) {
    return (
      <section className="settings-section stack">
        <h2 className="card__title">Company profile</h2>
        <p>
          <span className="muted">Name: </span>
          {team.name}
        </p>
        <p className="muted">Only the owner can change the company’s settings.</p>
      </section>
    );
  }

  return (
    <div className="stack-lg">
      <section className="settings-section" aria-labelledby={`${base}-title`}>
        <h2 id={`${base}-title`} className="card__title">
          Company profile
        </h2>
        <form id={base} className="stack" noValidate onSubmit={(e) => void rename(e)}>
          {message && <Notice tone={message.tone}>{message.text}</Notice>}
          <TextField
            id={`${base}-name`}
            label="Company name"
            name="team_name"
            autoComplete="organization"
            autoCapitalize="words"
            value={name}
            errors={errors}
            onChange={setName}
          />
          <SubmitButton pending={pending} label="Save name" busyLabel="Saving…" />
        </form>
      </section>
      <section className="settings-section settings-section--danger stack">
        <h2 className="card__title">Delete this company</h2>
        <p className="muted">
          Deleting the company removes it for every member. This cannot be undone.
        </p>
        <div>
          <button
            type="button"
            className="button button--danger"
            onClick={() => setConfirming(true)}
          >
            Delete company
          </button>
        </div>
      </section>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${team.name}?`}
        confirmLabel="Delete company"
        pending={deleting}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        <p>The company and its memberships are removed for everyone. This cannot be undone.</p>
      </ConfirmDialog>
    </div>
  );
}
