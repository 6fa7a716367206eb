/**
 * The vote page an e-mail's poll answer opens (./PollVotePage.tsx; docs/polls.md "Voting"):
 * opening it votes nothing; "Vote for …" does, once, then shows the results and goes on to the
 * answer's link; an earlier vote or a closed poll shows the results and says so; a refused link
 * says why.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Ballot } from '#shared/contract/polls.ts';
import { answer } from '../../test/api.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { PollVotePage, REDIRECT_DELAY_MS, leave } from './PollVotePage.tsx';

const LINK = '/l/welcome-1?email=ana%40example.com&__vote=1';
const ROUTE = `/poll?link=${encodeURIComponent(LINK)}`;

const BALLOT: Ballot = {
  question: 'Which colour?',
  options: [{ label: 'Red' }, { label: 'Blue' }],
  option: 1,
  closes_at: null,
  closed: false,
  voted: null,
  results: null,
};

const open = () => renderWithProviders(<PollVotePage />, { route: ROUTE, path: '/poll' });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the vote page', () => {
  it('asks before voting, votes once on the click, then shows the results', async () => {
    const ballot = answer('GET /api/polls/ballot', 200, BALLOT);
    const vote = answer('POST /api/polls/vote', 200, {
      recorded: true,
      option: 1,
      results: { counts: [1, 3], percentages: [25, 75], total: 4 },
      redirect: null,
      message: null,
    });
    const { user } = open();
    expect(screen.getByRole('status').textContent).toContain('Loading the poll');
    const button = await screen.findByRole('button', { name: 'Vote for “Blue”' });
    expect(screen.getByRole('heading', { name: 'Which colour?' })).toBeTruthy();
    expect(ballot.requests[0]?.query.get('link')).toBe(LINK);
    expect(vote.requests).toHaveLength(0);

    await user.click(button);
    expect(await screen.findByText('Thanks for voting!')).toBeTruthy();
    expect(vote.requests).toHaveLength(1);
    expect(vote.requests[0]?.body).toEqual({ link: LINK });
    const meters = screen.getAllByRole('meter');
    expect(meters.map((m) => m.getAttribute('aria-valuenow'))).toEqual(['25', '75']);
    expect(meters[1]!.getAttribute('aria-valuetext')).toBe('75% (3 votes)');
    expect(screen.getByText('(your vote)').closest('li')?.textContent).toContain('Blue');
    expect(screen.getByText('4 votes in all.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Vote for/ })).toBeNull();
  });

  it('goes on to the answer’s link after the thanks', async () => {
    answer('GET /api/polls/ballot', 200, BALLOT);
    answer('POST /api/polls/vote', 200, {
      recorded: true,
      option: 1,
      results: { counts: [0, 1], percentages: [0, 100], total: 1 },
      redirect: 'https://shop.example/blue',
      message: null,
    });
    const assign = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Vote for “Blue”' }));
    expect(await screen.findByText('Taking you on in a moment…')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(
      'https://shop.example/blue',
    );
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://shop.example/blue'), {
      timeout: REDIRECT_DELAY_MS + 1000,
    });
  });

  it('shows an earlier vote’s results and says the first vote counts', async () => {
    answer('GET /api/polls/ballot', 200, {
      ...BALLOT,
      voted: 0,
      results: { counts: [2, 1], percentages: [67, 33], total: 3 },
    });
    const vote = answer('POST /api/polls/vote', 200, {
      recorded: false,
      option: 0,
      results: { counts: [2, 1], percentages: [67, 33], total: 3 },
      redirect: null,
      message: 'x',
    });
    open();
    expect(
      await screen.findByText('You have already voted in this poll. Your first vote counts.'),
    ).toBeTruthy();
    expect(screen.getByText('(your vote)').closest('li')?.textContent).toContain('Red');
    expect(screen.queryByRole('button', { name: /Vote for/ })).toBeNull();
    expect(vote.requests).toHaveLength(0);
  });

  it('after the click, says an earlier vote stands without marking one when not told which', async () => {
    answer('GET /api/polls/ballot', 200, BALLOT);
    answer('POST /api/polls/vote', 200, {
      recorded: false,
      option: null,
      results: { counts: [2, 1], percentages: [67, 33], total: 3 },
      redirect: null,
      message: 'You have already voted in this poll. Your first vote counts.',
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Vote for “Blue”' }));
    expect(
      await screen.findByText('You have already voted in this poll. Your first vote counts.'),
    ).toBeTruthy();
    expect(screen.getAllByRole('meter')).toHaveLength(2);
    expect(screen.queryByText('(your vote)')).toBeNull();
    expect(screen.queryByText('Thanks for voting!')).toBeNull();
  });

  it('shows the final results of a closed poll', async () => {
    answer('GET /api/polls/ballot', 200, {
      ...BALLOT,
      closed: true,
      closes_at: '2026-01-01T00:00:00.000Z',
      results: { counts: [0, 0], percentages: [0, 0], total: 0 },
    });
    open();
    expect(
      await screen.findByText('This poll has closed. Here are the final results.'),
    ).toBeTruthy();
    expect(screen.getByText('0 votes in all.')).toBeTruthy();
  });

  it('says why a link is refused, and a refused vote keeps the button', async () => {
    answer('GET /api/polls/ballot', 403, {
      message: 'This voting link is not valid: it was changed, or it has expired.',
    });
    open();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This voting link is not valid: it was changed, or it has expired.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('keeps the button when the vote is refused', async () => {
    answer('GET /api/polls/ballot', 200, BALLOT);
    answer('POST /api/polls/vote', 429, {
      message: 'Too many votes from your network. Please try again later.',
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Vote for “Blue”' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many votes');
    expect(
      (screen.getByRole('button', { name: 'Vote for “Blue”' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});
