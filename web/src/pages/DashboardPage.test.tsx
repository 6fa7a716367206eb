/**
 * The dashboard page (./DashboardPage.tsx; docs/adr/0020-dashboard-spa.md "Dashboard SPA",
 * docs/adr/0018-design-lists.md "Design lists"): onboarding's address opens the templates view
 * filtered by its tag, with a chip that removes the filter; a frozen team is told why its Create
 * button and card actions are disabled, with the way to its subscription. The lists themselves are
 * in web/src/features/dashboard/DesignList.test.tsx.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { descriptionOf } from '../test/expectations.ts';
import { aDesignCard, aTeam, aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { DashboardPage } from './DashboardPage.tsx';

/** One last page of a dashboard list holding `cards`. */
const lastPage = (cards: ReturnType<typeof aDesignCard>[]) => ({
  data: cards,
  current_page: 1,
  next_page: null,
  cursor: null,
  per_page: 15,
});

/** The dashboard at `route` for Ana's team (frozen or not), which has no bonus bundles. */
function renderDashboard(route: string, frozen = false) {
  answer('GET /settings/companies/current', 200, aTeam({ frozen }));
  answer('POST /get-template-bundle', 200, {
    success: true,
    bundles: { data: [], current_page: 1, last_page: 1, per_page: 15, total: 0 },
  });
  return renderWithProviders(<DashboardPage />, {
    route,
    path: '/dashboard',
    signedInAs: aUser(),
  });
}

const selectedTab = () =>
  within(screen.getByRole('tablist', { name: 'PicSnippets' }))
    .getAllByRole('tab')
    .filter((tab) => tab.getAttribute('aria-selected') === 'true')
    .map((tab) => tab.textContent);

describe('the dashboard', () => {
  it('opens the templates view filtered by the address’s tag, with a chip that removes the filter', async () => {
    const tagged = answer('GET /getHomeTemplates', 200, { templates: lastPage([]) });
    const { user, router } = renderDashboard('/dashboard?view=templates&tag=ecommerce');
    expect(selectedTab()).toEqual(['View Templates']);
    await screen.findByRole('heading', { name: 'No templates for “E-commerce” yet' });
    expect(tagged.requests[0]?.query.get('tag')).toBe('ecommerce');

    const all = answer('GET /getHomeTemplates', 200, { templates: lastPage([]) });
    await user.click(screen.getByRole('button', { name: 'Remove the tag filter E-commerce' }));
    await screen.findByRole('heading', { name: 'No templates yet' });
    expect(router.state.location.search).toBe('?view=templates');
    expect(all.requests.at(-1)?.query.get('tag')).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove the tag filter/ })).toBeNull();
  });

  it('tells a frozen team why Create and the card actions are disabled, with the way to its subscription', async () => {
    answer('GET /getActive', 200, { active: lastPage([aDesignCard()]) });
    renderDashboard('/dashboard', true);
    const notice = await screen.findByText("Your team's account is frozen");
    expect(notice.closest('[role="status"]')?.textContent).toContain(
      'A frozen account cannot create, archive, clone or activate PicSnippets.',
    );
    expect(screen.getByRole('link', { name: 'Check the subscription' }).getAttribute('href')).toBe(
      '/settings/companies/team-1#/subscription',
    );
    const create = screen.getByRole('button', { name: 'Create a new PicSnippet' });
    expect(create.getAttribute('aria-disabled')).toBe('true');
    expect(descriptionOf(create)).toContain('A frozen account cannot create');
    expect(screen.queryByRole('link', { name: 'Create a new PicSnippet' })).toBeNull();
    const archive = await screen.findByRole('button', { name: 'Archive Spring sale' });
    await waitFor(() => expect(archive.getAttribute('aria-disabled')).toBe('true'));
    expect(descriptionOf(archive)).toContain('A frozen account cannot create');
  });

  it('offers a team that is not frozen the link to create a PicSnippet', async () => {
    answer('GET /getActive', 200, { active: lastPage([aDesignCard()]) });
    renderDashboard('/dashboard');
    await screen.findByRole('button', { name: 'Archive Spring sale' });
    expect(
      screen.getAllByRole('link', { name: 'Create a new PicSnippet' })[0]?.getAttribute('href'),
    ).toBe('/pic-snippet/create');
    expect(screen.queryByText("Your team's account is frozen")).toBeNull();
  });
});
