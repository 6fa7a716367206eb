import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TEAM_SEARCH_LIMIT } from '#shared/contract/kiosk-users.ts';
import { useDebouncedValue } from '../../../hooks/useDebouncedValue.ts';
import { KioskSearch } from '../shared/KioskSearch.tsx';
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
  const query = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const found = useQuery({
    queryKey: kioskKeys.teamSearch(query),
    queryFn: ({ signal }) => searchTeams(query, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <KioskSearch
      title="Teams"
      label="Search teams by name"
      noun="teams"
      text={text}
      onText={onText}
      query={found}
    >
      {(teams) => (
        <>
          <p className="muted" role="status">
            {teams.length === 0
              ? 'No team found'
              : teams.length >= TEAM_SEARCH_LIMIT
                ? `The first ${TEAM_SEARCH_LIMIT} teams: type more of the name to narrow it`
                : teams.length === 1
                  ? '1 team found'
                  : `${teams.length} teams found`}
          </p>
          {teams.length > 0 && (
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
                {teams.map((team) => (
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
    </KioskSearch>
  );
}
