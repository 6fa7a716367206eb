import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  assignTeams,
  fetchBundleTeams,
  searchTeams,
  type Bundle,
  type TeamRef,
} from '../../api/templates.ts';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { queryKeys } from '../../state/queryKeys.ts';
import { actionFailure } from '../../lib/formFailure.ts';

/** docs/editor.md "Constants": "Debounce: 400 ms team … search". */
export const TEAM_SEARCH_DEBOUNCE_MS = 400;

/** docs/editor.md "Messages" empty state of the team search. */
export const NO_TEAM_RESULT = 'No any result.';

/**
 * The add-teams modal (docs/adr/0020-dashboard-spa.md "Dashboard SPA": "A modal lets an admin add
 * teams to a bundle (selected teams are saved with Save Teams; an empty team search reads 'No any
 * result')"): the bundle's teams are read and shown checked; the search (400 ms debounce, the
 * kiosk's team search) lists more teams to check; Save Teams saves the checked teams as the
 * bundle's teams.
 * @param onSaved called with the server's message and the new team count.
 */
export function AddTeamsModal({
  bundle,
  onClose,
  onSaved,
}: {
  bundle: Bundle;
  onClose: () => void;
  onSaved: (message: string, teamsCount: number) => void;
}) {
  const searchId = useId();
  // The bundle's teams as read (always fresh: the modal saves the whole set), then as checked.
  const assignedRead = useQuery({
    queryKey: queryKeys.bundles.teams(bundle.id),
    queryFn: () => fetchBundleTeams(bundle.id),
    gcTime: 0,
  });
  const [picked, setPicked] = useState<Map<string, TeamRef> | null>(null);
  const checked =
    picked ?? (assignedRead.data ? new Map(assignedRead.data.map((t) => [t.id, t])) : null);
  const loadError = assignedRead.isError ? actionFailure(assignedRead.error) : null;
  const [query, setQuery] = useState('');
  const debounced = useDebouncedValue(query.trim(), TEAM_SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    queryKey: queryKeys.teams.search(debounced),
    queryFn: ({ signal }) => searchTeams(debounced, signal),
    enabled: debounced !== '',
  });
  const searchError = search.isError ? actionFailure(search.error) : null;
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  function toggle(team: TeamRef) {
    if (!checked) return;
    const next = new Map(checked);
    if (next.has(team.id)) next.delete(team.id);
    else next.set(team.id, team);
    setPicked(next);
  }

  async function save() {
    if (!checked || saving) return;
    setSaving(true);
    setSaveError(null);
    try {
      const saved = await assignTeams(bundle.id, [...checked.keys()]);
      onSaved(saved.message, saved.teamsCount);
    } catch (error) {
      setSaveError(actionFailure(error));
      setSaving(false);
    }
  }

  const searching = debounced !== '' && search.isPending;
  const shown = debounced === '' ? [] : (search.data ?? []);
  const assigned = checked ? [...checked.values()] : [];
  return (
    <Modal
      open
      title={`Add teams to “${bundle.name}”`}
      onCancel={onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button"
            aria-disabled={saving || checked === null}
            onClick={() => void save()}
          >
            {saving && <Spinner />}
            Save Teams
          </button>
        </>
      }
    >
      {loadError && <Notice tone="error">{loadError}</Notice>}
      {saveError && <Notice tone="error">{saveError}</Notice>}
      <fieldset className="team-picker">
        <legend className="team-picker__legend">Teams with this bundle</legend>
        {checked === null && !loadError ? (
          <p className="muted" role="status">
            <Spinner /> Loading the bundle’s teams…
          </p>
        ) : assigned.length === 0 ? (
          <p className="muted">No team has this bundle yet. Search for teams below.</p>
        ) : (
          <ul className="team-picker__list">
            {assigned.map((team) => (
              <TeamCheckbox key={team.id} team={team} checked onToggle={toggle} />
            ))}
          </ul>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={searchId} className="field__label">
          Search teams
        </label>
        <input
          id={searchId}
          type="search"
          className="input"
          value={query}
          autoComplete="off"
          data-autofocus
          placeholder="Team name"
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <div role="status" aria-live="polite" className="team-picker__results">
        {searching && (
          <p className="muted">
            <Spinner /> Searching…
          </p>
        )}
        {searchError && <p className="field__error">{searchError}</p>}
        {!searching && debounced !== '' && shown.length === 0 && !searchError && (
          <p className="muted" data-testid="no-team-result">
            {NO_TEAM_RESULT}
          </p>
        )}
      </div>
      {!searching && shown.length > 0 && (
        <ul className="team-picker__list" aria-label="Teams found">
          {shown.map((team) => (
            <TeamCheckbox
              key={team.id}
              team={team}
              checked={checked?.has(team.id) ?? false}
              onToggle={toggle}
            />
          ))}
        </ul>
      )}
    </Modal>
  );
}

function TeamCheckbox({
  team,
  checked,
  onToggle,
}: {
  team: TeamRef;
  checked: boolean;
  onToggle: (team: TeamRef) => void;
}) {
  return (
    <li>
      <label className="team-picker__team">
        <input type="checkbox" checked={checked} onChange={() => onToggle(team)} />
        <span>{team.name}</span>
      </label>
    </li>
  );
}
