/**
 * A dashboard list (./DesignList.tsx; docs/adr/0020-dashboard-spa.md "Dashboard SPA",
 * docs/adr/0018-design-lists.md "Design lists"): the loading state while the first page comes, each
 * list's empty state with what to do next, the failure with Retry, the cards (their created day and
 * views), "Load more" and the end of the list ("No more results"), the actions from the keyboard
 * with focus kept in place and their 4-second confirmation flash, and a frozen team's disabled
 * actions, which do nothing.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardView } from '../../api/designs.ts';
import { answer, failNetwork } from '../../test/api.ts';
import { descriptionOf, expectFocusOn } from '../../test/expectations.ts';
import { aDesignCard, aUser } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { DesignList } from './DesignList.tsx';

/** One page of a list: these cards, and the next page's number (null: the last page). */
function page(cards: ReturnType<typeof aDesignCard>[], next: number | null = null) {
  return {
    data: cards,
    current_page: next === null ? 1 : next - 1,
    next_page: next,
    cursor: next === null ? null : `cursor-${next}`,
    per_page: 15,
  };
}

function renderList(view: DashboardView, options: { tag?: string; frozen?: boolean } = {}) {
  return renderWithProviders(
    <>
      <p id="frozen-hint">This company is frozen.</p>
      <DesignList
        view={view}
        sort=""
        tag={options.tag ?? ''}
        frozen={options.frozen ?? false}
        frozenHintId="frozen-hint"
      />
    </>,
    { route: '/dashboard', signedInAs: aUser() },
  );
}

describe('a dashboard list', () => {
  it('says it is loading while the first page is on its way', async () => {
    const list = answer('GET /getActive', 200, { active: page([aDesignCard()]) }, { held: true });
    renderList('active');
    const statuses = screen.getAllByRole('status').map((status) => status.textContent);
    expect(statuses).toContain('Loading PicSnippets…');
    expect(screen.queryByRole('list', { name: 'PicSnippets' })).toBeNull();
    list.release();
    await screen.findByRole('list', { name: 'PicSnippets' });
    expect(list.requests[0]?.query.get('page')).toBe('1');
  });

  it('says there are no PicSnippets yet, and offers to create one', async () => {
    answer('GET /getActive', 200, { active: page([]) });
    renderList('active');
    expect(await screen.findByRole('heading', { name: 'No PicSnippets yet' })).toBeTruthy();
    const create = screen.getByRole('link', { name: 'Create a new PicSnippet' });
    expect(create.getAttribute('href')).toBe('/pic-snippet/create');
    expect(screen.queryByText('No more results')).toBeNull();
  });

  it('offers no creation to a frozen team', async () => {
    answer('GET /getActive', 200, { active: page([]) });
    renderList('active', { frozen: true });
    await screen.findByRole('heading', { name: 'No PicSnippets yet' });
    expect(screen.queryByRole('link', { name: 'Create a new PicSnippet' })).toBeNull();
  });

  it('says nothing is archived', async () => {
    answer('GET /getArchived', 200, { archived: page([]) });
    renderList('archived');
    await screen.findByRole('heading', { name: 'Nothing archived' });
    expect(screen.getByText(/Activate one to use it again\./)).toBeTruthy();
  });

  it('says there are no templates yet', async () => {
    answer('GET /getHomeTemplates', 200, { templates: page([]) });
    renderList('templates');
    await screen.findByRole('heading', { name: 'No templates yet' });
    expect(screen.getByText(/Templates that admins publish show here/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Show all templates' })).toBeNull();
  });

  it('names the tag of an empty template list, and offers all templates', async () => {
    const list = answer('GET /getHomeTemplates', 200, { templates: page([]) });
    renderList('templates', { tag: 'store' });
    await screen.findByRole('heading', { name: 'No templates for “Physical store” yet' });
    expect(screen.getByRole('link', { name: 'Show all templates' }).getAttribute('href')).toBe(
      '/dashboard?view=templates',
    );
    expect(list.requests[0]?.query.get('tag')).toBe('store');
  });

  it('says the list could not be loaded and why, and loads it again on Retry', async () => {
    answer('GET /getActive', 500, { message: 'Server Error' });
    const { user } = renderList('active');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your PicSnippets could not be loaded');
    expect(alert.textContent).toContain('Server Error');
    answer('GET /getActive', 200, { active: page([aDesignCard()]) });
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('list', { name: 'PicSnippets' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says there is no connection when the list gets no answer', async () => {
    failNetwork('GET /getArchived');
    renderList('archived');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'We could not reach PicSnippets. Check your connection and try again.',
    );
  });

  it('shows each card with its title linked to the editor, its views and its actions', async () => {
    answer('GET /getActive', 200, {
      active: page([
        aDesignCard({ counter: 1234 }),
        aDesignCard({ id: 'design-2', title: 'Winter' }),
      ]),
    });
    renderList('active');
    const list = await screen.findByRole('list', { name: 'PicSnippets' });
    const [spring] = within(list).getAllByRole('article');
    expect(within(spring!).getByRole('link', { name: 'Spring sale' }).getAttribute('href')).toBe(
      '/pic-snippet/design-1/edit',
    );
    expect(spring?.textContent).toContain('1,234 opens');
    expect(within(spring!).getByText('Preview not available')).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Archive Spring sale' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Clone Winter' })).toBeTruthy();
    expect(screen.getByText('No more results')).toBeTruthy();
  });

  it('loads the next page with “Load more”, then says there are no more results', async () => {
    const first = answer('GET /getActive', 200, { active: page([aDesignCard()], 2) });
    const { user } = renderList('active');
    const more = await screen.findByRole('button', { name: 'Load more PicSnippets' });
    expect(screen.queryByText('No more results')).toBeNull();
    const second = answer('GET /getActive', 200, {
      active: page([aDesignCard({ id: 'design-2', title: 'Winter' })]),
    });
    await user.click(more);
    await screen.findByText('No more results');
    expect(
      within(screen.getByRole('list', { name: 'PicSnippets' })).getAllByRole('article'),
    ).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more PicSnippets' })).toBeNull();
    expect(first.requests).toHaveLength(1);
    expect(second.requests[0]?.query.get('page')).toBe('2');
    expect(second.requests[0]?.query.get('cursor')).toBe('cursor-2');
  });

  it('keeps the cards and offers Retry when a further page fails', async () => {
    answer('GET /getActive', 200, { active: page([aDesignCard()], 2) });
    const { user } = renderList('active');
    const more = await screen.findByRole('button', { name: 'Load more PicSnippets' });
    answer('GET /getActive', 503, { message: 'The service is unavailable.' });
    await user.click(more);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The service is unavailable.');
    expect(screen.getByRole('list', { name: 'PicSnippets' })).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('ends a template list only after more than four templates', async () => {
    answer('GET /getHomeTemplates', 200, {
      templates: page([aDesignCard({ isTemplate: true, title: 'Sale banner' })]),
    });
    renderList('templates');
    const list = await screen.findByRole('list', { name: 'templates' });
    expect(
      within(list).getByRole('button', { name: 'Use this template Sale banner' }),
    ).toBeTruthy();
    expect(screen.queryByText('No more results')).toBeNull();
  });

  it('disables a frozen team’s actions, saying why', async () => {
    answer('GET /getActive', 200, { active: page([aDesignCard()]) });
    renderList('active', { frozen: true });
    const archive = await screen.findByRole('button', { name: 'Archive Spring sale' });
    expect(archive.getAttribute('aria-disabled')).toBe('true');
    expect(descriptionOf(archive)).toBe('This company is frozen.');
  });
});

/** What `PUT …/archive` and `PUT …/unarchive` answer for `card` (the write's fields). */
function written(card: ReturnType<typeof aDesignCard>) {
  return { success: true as const, version: 2, title: card.title, updated_at: card.updated_at };
}

const SPRING = aDesignCard();
const WINTER = aDesignCard({ id: 'design-2', title: 'Winter' });
const AUTUMN = aDesignCard({ id: 'design-3', title: 'Autumn' });

/** The flash's live region (role status, always in the page) and what it says. */
const flashText = () =>
  screen
    .getAllByRole('status')
    .map((status) => status.textContent ?? '')
    .join(' ');

describe('a dashboard list’s actions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says on each card when it was created', async () => {
    answer('GET /getActive', 200, {
      active: page([aDesignCard({ created_at: '2026-11-22T10:00:00.000Z', counter: 1 })]),
    });
    renderList('active');
    const [card] = within(await screen.findByRole('list', { name: 'PicSnippets' })).getAllByRole(
      'article',
    );
    expect(card?.textContent).toContain('Created 22 Nov 2026');
    expect(card?.textContent).toContain('1 open');
    expect(card?.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-22T10:00:00.000Z');
  });

  it('archives from the keyboard: Enter on Archive, a flash, and the card now in its place takes focus', async () => {
    answer('GET /getActive', 200, { active: page([SPRING, WINTER, AUTUMN]) });
    const archive = answer('PUT /api/pic-snippet/{id}/archive', 200, {
      ...written(SPRING),
      archived: { ...SPRING, status: 'archived', archived_at: '2026-01-06T10:00:00.000Z' },
    });
    const { user } = renderList('active');
    const list = await screen.findByRole('list', { name: 'PicSnippets' });
    within(list).getByRole('button', { name: 'Archive Spring sale' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(flashText()).toContain('“Spring sale” was archived.'));
    await waitFor(() =>
      expect(within(list).queryByRole('link', { name: 'Spring sale' })).toBeNull(),
    );
    await waitFor(() => expectFocusOn(within(list).getByRole('link', { name: 'Winter' })));
    expect(archive.requests.map((r) => r.params)).toEqual([{ id: 'design-1' }]);
  });

  it('activates the last archived design, says so, and the empty state takes focus', async () => {
    const archived = { ...SPRING, status: 'archived' as const };
    answer('GET /getArchived', 200, { archived: page([archived]) });
    const activate = answer('PUT /api/pic-snippet/{id}/unarchive', 200, {
      ...written(SPRING),
      active: SPRING,
    });
    const { user } = renderList('archived');
    await user.click(await screen.findByRole('button', { name: 'Activate Spring sale' }));
    await waitFor(() => expect(flashText()).toContain('“Spring sale” is active again.'));
    const empty = await screen.findByRole('heading', { name: 'Nothing archived' });
    await waitFor(() => expectFocusOn(empty));
    expect(activate.requests).toHaveLength(1);
  });

  it('shows the confirmation flash for 4 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answer('GET /getActive', 200, { active: page([SPRING, WINTER]) });
    answer('PUT /api/pic-snippet/{id}/archive', 200, {
      ...written(SPRING),
      archived: { ...SPRING, status: 'archived' },
    });
    const { user } = renderList('active');
    await user.click(await screen.findByRole('button', { name: 'Archive Spring sale' }));
    await waitFor(() => expect(flashText()).toContain('“Spring sale” was archived.'));
    // Up to a second of real time may have passed (the clock advances with it).
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(flashText()).toContain('“Spring sale” was archived.');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1100);
    });
    expect(flashText()).not.toContain('was archived');
  });

  it('does nothing when a frozen team presses Archive: no call, no spinner, no flash', async () => {
    answer('GET /getActive', 200, { active: page([SPRING]) });
    const archive = answer('PUT /api/pic-snippet/{id}/archive', 200, {
      ...written(SPRING),
      archived: { ...SPRING, status: 'archived' },
    });
    const { user } = renderList('active', { frozen: true });
    const button = await screen.findByRole('button', { name: 'Archive Spring sale' });
    await user.click(button);
    button.focus();
    await user.keyboard('{Enter}');
    expect(archive.requests).toHaveLength(0);
    expect(button.querySelector('.spinner')).toBeNull();
    expect(flashText()).not.toContain('archived');
    expect(screen.getByRole('link', { name: 'Spring sale' })).toBeTruthy();
  });
});
