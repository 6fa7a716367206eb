import { useId, useState } from 'react';
import { useSingleFieldForm } from './useSingleFieldForm.ts';
import { RenameTeamBody } from '#shared/contract/teams.ts';
import { useNavigate } from 'react-router-dom';
import { deleteTeam, renameTeam, uploadPhoto, type TeamDetails } from '../../api/settings.ts';
import { PhotoUpload } from '../../components/PhotoUpload.tsx';
import { ConfirmDialog } from '../../components/Modal.tsx';
import {
  discardUnsavedChanges,
  useUnsavedChangesGuard,
} from '../../hooks/useUnsavedChangesGuard.ts';
import { useAppStore } from '../../state/store.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { CompanyNameForm } from './CompanyNameForm.tsx';
import { WatermarkSection } from './WatermarkSection.tsx';

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
  const form = useSingleFieldForm({
    field: 'name',
    schema: RenameTeamBody.shape.name,
    initial: team.name,
    action: async (name) => {
      await renameTeam(team.id, name);
      onChanged();
      return 'The company name was saved.';
    },
  });
  const { setMessage } = form;
  useUnsavedChangesGuard(isOwner && form.dirty);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function remove() {
    setDeleting(true);
    try {
      await deleteTeam(team.id);
      await refreshSession();
      // The company is gone, and a name typed for it with it: nothing to ask about.
      discardUnsavedChanges();
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
      <section className="settings-section" aria-label="Company photo">
        <PhotoUpload
          label="Company photo"
          name={team.name}
          photoUrl={team.photo_url}
          upload={(file, onProgress) =>
            uploadPhoto({ kind: 'team', teamId: team.id }, file, onProgress)
          }
          onUploaded={onChanged}
        />
      </section>
      <WatermarkSection team={team} onChanged={onChanged} />
      <CompanyNameForm
        formId={base}
        title="Company profile"
        form={form}
        submitLabel="Save name"
        busyLabel="Saving…"
      />
      <section className="settings-section settings-section--danger stack">
        <h2 className="card__title">Delete this company</h2>
        <p className="muted">
          Deleting the company removes it for every member and ends its subscription at once,
          without a refund of the current period. This cannot be undone.
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
        <p>
          The company and its memberships are removed for everyone, and its subscription ends now.
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
