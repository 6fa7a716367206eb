/**
 * Onboarding (./OnboardingPage.tsx; docs/adr/0016-onboarding.md "Onboarding"): step 1 offers the
 * eight use cases and says to choose one when Next is pressed without a choice, step 2 shows the
 * chosen use case's ideas with focus on its heading, and Continue saves the choice (`PUT
 * /settings/onboarding`) and goes to the use case's address.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USE_CASES } from '#shared/onboarding.ts';
import { answer } from '../test/api.ts';
import { expectBusy } from '../test/expectations.ts';
import { aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { OnboardingPage } from './OnboardingPage.tsx';

const CHOOSE = 'Choose the use case closest to yours.';
const STORE_ADDRESS = '/dashboard?view=templates&tag=store';

function renderOnboarding() {
  return renderWithProviders(<OnboardingPage />, {
    route: '/onboarding',
    path: '/onboarding',
    signedInAs: aUser(),
  });
}

/** Step 1's radios, in the order shown. */
const useCaseRadios = () =>
  within(screen.getByRole('group', { name: 'Use case' })).getAllByRole('radio');

describe('onboarding', () => {
  it('offers the eight use cases as radios, none chosen, each named and described', () => {
    renderOnboarding();
    expect(
      screen.getByRole('heading', { level: 1, name: 'What will you make first?' }),
    ).toBeTruthy();
    const radios = useCaseRadios() as HTMLInputElement[];
    expect(radios).toHaveLength(8);
    expect(radios.filter((r) => r.checked)).toEqual([]);
    const store = screen.getByRole('radio', { name: 'Physical store' });
    expect(store.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(store.getAttribute('aria-describedby')!)?.textContent).toBe(
      USE_CASES.find((u) => u.key === 'phisicalStore')?.summary,
    );
  });

  it('says to choose a use case when Next is pressed without one, and stays on step 1', async () => {
    const { user } = renderOnboarding();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CHOOSE);
    expect(useCaseRadios()).toHaveLength(8);
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('shows the chosen use case’s ideas with focus on their heading, and Back keeps the choice', async () => {
    const { user } = renderOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Physical store' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'Physical store: ideas to start with',
    });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const ideas = USE_CASES.find((u) => u.key === 'phisicalStore')!.ideas;
    const list = screen.getByText(ideas[0]).closest('ul')!;
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([...ideas]);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    const back = await screen.findByRole('heading', {
      level: 1,
      name: 'What will you make first?',
    });
    await waitFor(() => expect(document.activeElement).toBe(back));
    expect(
      (screen.getByRole('radio', { name: 'Physical store' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('saves the choice, says it is opening the templates, and goes to the use case’s address', async () => {
    const save = answer(
      'PUT /settings/onboarding',
      200,
      { success: true, redirect: STORE_ADDRESS },
      { held: true },
    );
    const { user, router } = renderOnboarding();
    await user.click(screen.getByRole('radio', { name: 'Physical store' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() =>
      expectBusy(screen.getByRole('button', { name: 'Opening templates…' }), 'Opening templates…'),
    );
    save.release();
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        STORE_ADDRESS,
      ),
    );
    expect(save.requests.map((r) => r.body)).toEqual([{ use_case: 'phisicalStore' }]);
  });

  it('can be skipped: Skip for now goes to the dashboard and saves nothing', async () => {
    const saved = answer('PUT /settings/onboarding', 200, { success: true, redirect: '/x' });
    const { user, router } = renderOnboarding();
    await user.click(screen.getByRole('link', { name: 'Skip for now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(saved.requests).toHaveLength(0);
  });
});
