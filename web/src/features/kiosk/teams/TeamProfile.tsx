import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { KioskTeamProfile } from '#shared/contract/kiosk-users.ts';
import { KioskProfileFrame } from '../shared/KioskProfileFrame.tsx';
import { fetchTeamProfile, kioskKeys } from '../users/api.ts';
import { when } from '../users/format.ts';
import { PermissionsForm } from './PermissionsForm.tsx';

/**
 * A team's kiosk profile (docs/kiosk.md Team): owner and members, plan and
 * its design limit, designs counted, bundles, and the additional permissions form. Esc or
 * "Back to the search" returns to the search as it was.
 */
export function TeamProfile({ id, back }: { id: string; back: () => void }) {
  const team = useQuery({
    queryKey: kioskKeys.team(id),
    queryFn: ({ signal }) => fetchTeamProfile(id, signal),
  });
  return (
    <KioskProfileFrame query={team} noun="team" back={back}>
      {(data) => <TeamBody team={data} />}
    </KioskProfileFrame>
  );
}

function TeamBody({ team }: { team: KioskTeamProfile }) {
  const id = useId();
  const limit =
    team.plan.designs === null
      ? 'no limit'
      : `${team.plan.designs + team.additional_picsnippets} active (${team.plan.designs} by the plan${team.additional_picsnippets ? ` + ${team.additional_picsnippets} additional` : ''})`;
  return (
    <article className="stack-lg" aria-labelledby={`${id}-name`}>
      <header>
        <h2 id={`${id}-name`} className="kiosk-profile__name">
          {team.name} {team.frozen && <span className="badge kiosk-badge">Frozen</span>}
        </h2>
        <p className="muted">
          {team.slug} · created {when(team.created_at)}
        </p>
      </header>
      <section className="card" aria-labelledby={`${id}-plan`}>
        <h3 id={`${id}-plan`} className="card__title">
          Plan and designs
        </h3>
        <dl className="kiosk-facts">
          <dt>Plan</dt>
          <dd>{team.plan.name}</dd>
          <dt>Designs allowed</dt>
          <dd>{limit}</dd>
          <dt>Designs</dt>
          <dd>
            {team.designs.active} active, {team.designs.archived} archived
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby={`${id}-members`}>
        <h3 id={`${id}-members`} className="card__title">
          Members
        </h3>
        <table className="kiosk-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
            </tr>
          </thead>
          <tbody>
            {team.users.map((u) => (
              <tr key={u.id}>
                <td>
                  <a href={`#/users/${encodeURIComponent(u.id)}`}>{u.name}</a>
                </td>
                <td>{u.email}</td>
                <td>{u.pivot.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" aria-labelledby={`${id}-bundles`}>
        <h3 id={`${id}-bundles`} className="card__title">
          Template bundles
        </h3>
        {team.bundles.length === 0 ? (
          <p className="muted">No bundle is assigned to this team.</p>
        ) : (
          <ul className="kiosk-list">
            {team.bundles.map((b) => (
              <li key={b.id}>
                {b.name}
                {b.status === 'inactive' && <span className="badge kiosk-badge">Inactive</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby={`${id}-perm`}>
        <h3 id={`${id}-perm`} className="card__title">
          Additional permissions
        </h3>
        <PermissionsForm team={team} />
      </section>
    </article>
  );
}
