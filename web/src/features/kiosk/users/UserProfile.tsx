import { useMutation, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { KioskUserProfile } from '#shared/contract/kiosk-users.ts';
import { Notice } from '../../../components/Notice.tsx';
import { loadFailure } from '../../../state/queryClient.ts';
import { KioskProfileFrame } from '../shared/KioskProfileFrame.tsx';
import { fetchUserProfile, impersonate, kioskKeys } from './api.ts';
import { DiscountForm } from './DiscountForm.tsx';
import { discountText, dollars, when } from './format.ts';

/**
 * A user's kiosk profile (docs/kiosk.md "Kiosk"; docs/kiosk.md): the account, teams with role,
 * plan and subscription (and its discount), invoices of the teams they own, the last sign-ins
 * and impersonations; Impersonate (never an admin) and the discount form. Esc or "Back to the
 * search" returns to the search as it was.
 */
export function UserProfile({ id, back }: { id: string; back: () => void }) {
  const profile = useQuery({
    queryKey: kioskKeys.user(id),
    queryFn: ({ signal }) => fetchUserProfile(id, signal),
  });
  return (
    <KioskProfileFrame query={profile} noun="user" back={back}>
      {(data) => <ProfileBody user={data} />}
    </KioskProfileFrame>
  );
}

function ProfileBody({ user }: { user: KioskUserProfile }) {
  const id = useId();
  const start = useMutation({
    mutationFn: () => impersonate(user.id),
    // A full page load: every cached answer was the admin's.
    onSuccess: (redirect) => window.location.assign(redirect),
  });
  const subscribed = user.teams.filter((t) => t.role === 'owner' && t.subscription);
  return (
    <article className="stack-lg" aria-labelledby={`${id}-name`}>
      <header className="kiosk-profile__head">
        <div>
          <h2 id={`${id}-name`} className="kiosk-profile__name">
            {user.name} {user.isAdmin && <span className="badge kiosk-badge">Admin</span>}
          </h2>
          <p className="muted">{user.email}</p>
        </div>
        {user.isAdmin ? (
          <p className="muted">Platform admins cannot be impersonated.</p>
        ) : (
          <button
            type="button"
            className="button"
            aria-disabled={start.isPending}
            onClick={() => !start.isPending && start.mutate()}
          >
            {start.isPending ? 'Impersonating…' : `Impersonate ${user.name}`}
          </button>
        )}
      </header>
      {start.isError && <Notice tone="error">{loadFailure(start.error)}</Notice>}

      <section className="card" aria-labelledby={`${id}-account`}>
        <h3 id={`${id}-account`} className="card__title">
          Account
        </h3>
        <dl className="kiosk-facts">
          <dt>Signed up</dt>
          <dd>{when(user.created_at)}</dd>
          <dt>E-mail confirmed</dt>
          <dd>{user.email_verified ? 'Yes' : 'No'}</dd>
          <dt>Two-factor authentication</dt>
          <dd>{user.two_factor_enabled ? 'On' : 'Off'}</dd>
        </dl>
      </section>

      <section className="card" aria-labelledby={`${id}-teams`}>
        <h3 id={`${id}-teams`} className="card__title">
          Teams, plans and subscriptions
        </h3>
        {user.teams.length === 0 ? (
          <p className="muted">Not in any team.</p>
        ) : (
          <table className="kiosk-table">
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">Role</th>
                <th scope="col">Plan</th>
                <th scope="col">Subscription</th>
                <th scope="col">Discount</th>
              </tr>
            </thead>
            <tbody>
              {user.teams.map((team) => (
                <tr key={team.id}>
                  <td>
                    <a href={`#/teams/${encodeURIComponent(team.id)}`}>{team.name}</a>
                  </td>
                  <td>{team.role}</td>
                  <td>{team.plan.name}</td>
                  <td>
                    {team.subscription
                      ? `${team.subscription.status}${team.subscription.ends_at ? `, ends ${when(team.subscription.ends_at)}` : ''}`
                      : 'None'}
                  </td>
                  <td>
                    {team.subscription?.discount ? discountText(team.subscription.discount) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby={`${id}-invoices`}>
        <h3 id={`${id}-invoices`} className="card__title">
          Invoices
        </h3>
        <Invoices user={user} />
      </section>

      <section className="card" aria-labelledby={`${id}-discount`}>
        <h3 id={`${id}-discount`} className="card__title">
          Add a discount
        </h3>
        {!user.billing_online ? (
          <Notice tone="info">
            Billing is offline (no Stripe key is configured), so discounts cannot be applied.
          </Notice>
        ) : subscribed.length === 0 ? (
          <p className="muted">
            This user pays for no subscription, so there is nothing to discount.
          </p>
        ) : (
          <DiscountForm
            userId={user.id}
            teams={subscribed.map((t) => ({ id: t.id, name: t.name }))}
          />
        )}
      </section>

      <section className="card" aria-labelledby={`${id}-signins`}>
        <h3 id={`${id}-signins`} className="card__title">
          Last sign-ins
        </h3>
        {user.sign_ins.length === 0 ? (
          <p className="muted">No sign-in recorded yet.</p>
        ) : (
          <table className="kiosk-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Address</th>
                <th scope="col">Browser</th>
              </tr>
            </thead>
            <tbody>
              {user.sign_ins.map((s) => (
                <tr key={s.at}>
                  <td>{when(s.at)}</td>
                  <td>{s.ip}</td>
                  <td className="kiosk-table__long">{s.user_agent || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby={`${id}-imp`}>
        <h3 id={`${id}-imp`} className="card__title">
          Impersonations
        </h3>
        {user.impersonations.length === 0 ? (
          <p className="muted">Never impersonated.</p>
        ) : (
          <table className="kiosk-table">
            <thead>
              <tr>
                <th scope="col">By</th>
                <th scope="col">Started</th>
                <th scope="col">Ended</th>
              </tr>
            </thead>
            <tbody>
              {user.impersonations.map((i) => (
                <tr key={i.id}>
                  <td>{i.admin ? `${i.admin.name} (${i.admin.email})` : 'A removed admin'}</td>
                  <td>{when(i.started_at)}</td>
                  <td>{i.ended_at ? when(i.ended_at) : 'Not stopped'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}

/** The invoices of the teams the user owns, newest first. */
function Invoices({ user }: { user: KioskUserProfile }) {
  const owned = user.teams.filter((t) => t.role === 'owner');
  const unreadable = owned.some((t) => t.invoices === null);
  const rows = owned
    .flatMap((t) => (t.invoices ?? []).map((invoice) => ({ team: t.name, invoice })))
    .sort((a, b) => b.invoice.date.localeCompare(a.invoice.date));
  return (
    <>
      {unreadable && <Notice tone="error">Some invoices could not be read from Stripe.</Notice>}
      {rows.length === 0 ? (
        <p className="muted">
          {user.billing_online ? 'No paid invoices.' : 'No invoices: billing is offline.'}
        </p>
      ) : (
        <table className="kiosk-table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Team</th>
              <th scope="col">Number</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ team, invoice }) => (
              <tr key={invoice.id}>
                <td>{when(invoice.date)}</td>
                <td>{team}</td>
                <td>{invoice.number ?? invoice.id}</td>
                <td>{dollars(invoice.total, invoice.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
