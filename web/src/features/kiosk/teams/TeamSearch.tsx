import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { TEAM_SEARCH_LIMIT } from '#shared/contract/kiosk-users.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { loadFailure } from '../../../state/queryClient.ts';
import { LoadFailed } from '../../dashboard/LoadFailed.tsx';
import { kioskKeys, searchTeams } from '../users/api.ts';

/** How long typing rests before the teams are searched, ms. */
const SEARCH_DELAY_MS = 300;

/** The team search: name or slug, any part, any case; at most 25 teams, each opening its profile. */
export function TeamSearch({
  text,
  onText,
  open,
}: {
  text: string;
  onText: (text: string) => void;
  open: (id: string) => void;
}) {
  const id = useId();
  const query = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const found = useQuery({
    queryKey: kioskKeys.teamSearch(query),
    queryFn: ({ signal }) => searchTeams(query, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Teams
      </h2>
      <search className="kiosk-search">
        <label htmlFor={`${id}-q`}>Search teams by name</label>
        <input
          id={`${id}-q`}
          type="search"
          className="input"
          value={text}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => onText(event.target.value)}
        />
      </search>
      {found.status === 'pending' && (
        <p className="muted" role="status">
          <Spinner /> Searching…
        </p>
      )}
      {found.status === 'error' && (
        <LoadFailed
          title="The teams could not be searched."
          message={loadFailure(found.error)}
          onRetry={() => void found.refetch()}
        />
      )}
      {found.data && (
        <>
          <p className="muted" role="status">
            {found.data.length === 0
              ? 'No team found'
              : found.data.length >= TEAM_SEARCH_LIMIT
                ? `The first ${TEAM_SEARCH_LIMIT} teams: type more of the name to narrow it`
                : found.data.length === 1
                  ? '1 team found'
                  : `${found.data.length} teams found`}
          </p>
          {found.data.length > 0 && (
            <table className="kiosk-table">
              <caption className="visually-hidden">Teams found</caption>
              <thead>
                <tr>
                  <th scope="col">Team</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Plan</th>
                </tr>
              </thead>
              <tbody>
                {found.data.map((team) => (
                  <tr key={team.id}>
                    <td>
                      <a
                        href={`#/teams/${encodeURIComponent(team.id)}`}
                        onClick={(event) => {
                          event.preventDefault();
                          open(team.id);
                        }}
                      >
                        {team.name}
                      </a>
                      {team.frozen && <span className="badge kiosk-badge">Frozen</span>}
                    </td>
                    <td>{team.owner ? `${team.owner.name} (${team.owner.email})` : '—'}</td>
                    <td>{team.current_billing_plan}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
