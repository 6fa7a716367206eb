/**
 * The design's poll on its analytics page (./PollSection.tsx; docs/polls.md "For the team"): the
 * results and votes per day, the votes as CSV (every page, escaped), and nothing at all for a
 * design without a poll.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PollVotes } from '#shared/contract/polls.ts';
import { answer } from '../../test/api.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import * as csv from '../analytics/csv.ts';
import { PollSection, votesCsv } from './PollSection.tsx';

const VIEW: PollVotes = {
  poll: {
    id: 'poll-1',
    question: 'Which colour?',
    options: [{ label: 'Red' }, { label: '=Blue' }],
    closes_at: null,
    closed: false,
    voter_parameter: 'email',
  },
  results: { counts: [1, 3], percentages: [25, 75], total: 4 },
  days: [
    { day: '2026-11-27', counts: [1, 1], total: 2 },
    { day: '2026-11-28', counts: [0, 2], total: 2 },
  ],
  votes: [{ voter: 'a'.repeat(64), option: 0, voted_at: '2026-11-27T10:00:00.000Z', value: null }],
  next: 'page-2',
};

afterEach(() => vi.restoreAllMocks());

describe('the poll section', () => {
  it('shows the results and the votes per answer by day', async () => {
    answer('GET /api/pic-snippet/{id}/poll/votes', 200, VIEW);
    renderWithProviders(<PollSection designId="design-1" />);
    expect(await screen.findByRole('heading', { name: 'Poll: Which colour?' })).toBeTruthy();
    expect(screen.getAllByRole('meter').map((m) => m.getAttribute('aria-valuenow'))).toEqual([
      '25',
      '75',
    ]);
    const rows = screen.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['DayRed=BlueAll', '2026-11-27112', '2026-11-28022']);
  });

  it('downloads every page of votes as CSV, formulas defused', async () => {
    const route = answer('GET /api/pic-snippet/{id}/poll/votes', 200, VIEW);
    const download = vi.spyOn(csv, 'downloadCsv').mockImplementation(() => undefined);
    const { user } = renderWithProviders(<PollSection designId="design-1" />);
    const button = await screen.findByRole('button', { name: 'Download votes (CSV)' });
    const second = answer('GET /api/pic-snippet/{id}/poll/votes', 200, {
      ...VIEW,
      votes: [
        {
          voter: 'b'.repeat(64),
          option: 1,
          voted_at: '2026-11-28T09:00:00.000Z',
          value: 'bea@example.com',
        },
      ],
      next: null,
    });
    await user.click(button);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    expect(second.requests[0]?.query.get('cursor')).toBe('page-2');
    const [text, name] = download.mock.calls[0]!;
    expect(name).toBe('poll-votes-design-1.csv');
    expect(text.split('\r\n')).toEqual([
      'voter,answer,voted_at,value',
      `${'a'.repeat(64)},Red,2026-11-27T10:00:00.000Z,`,
      `${'b'.repeat(64)},'=Blue,2026-11-28T09:00:00.000Z,bea@example.com`,
      '',
    ]);
    expect(route.requests).toHaveLength(1);
  });

  it('shows nothing for a design without a poll', async () => {
    const route = answer('GET /api/pic-snippet/{id}/poll/votes', 404, {
      message: 'This design has no poll.',
    });
    const { container } = renderWithProviders(<PollSection designId="design-1" />);
    await waitFor(() => expect(route.requests).toHaveLength(1));
    await waitFor(() => expect(container.textContent).toBe(''));
  });

  it('writes an answer’s label, or its number when the poll lost it', () => {
    expect(votesCsv(VIEW.poll, [{ voter: 'v', option: 5, voted_at: 't', value: null }])).toBe(
      'voter,answer,voted_at,value\r\nv,5,t,\r\n',
    );
  });
});
