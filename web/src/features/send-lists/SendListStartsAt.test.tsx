/**
 * The campaign start on the send-list screen (docs/send-lists.md "Warm capacity before a send"):
 * the upload form's "Campaign starts at" field, read as UTC and saying so, sent as an ISO time;
 * a start in the past refused on the field before anything is sent, the API's refusal shown on
 * the field; a job's start and warm capacity shown, changed and cleared.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SendListJob } from '#shared/contract/send-lists.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { answer } from '../../test/api.ts';
import { descriptionOf, expectFieldError } from '../../test/expectations.ts';
import { SendListUpload } from './SendListUpload.tsx';
import { SendListStartsAt } from './SendListStartsAt.tsx';

const FIELD = 'Campaign starts at (UTC, optional)';

const aJob = (fields: Partial<SendListJob> = {}): SendListJob => ({
  id: 'job1',
  design_id: 'd1',
  state: 'done',
  file_name: 'november.csv',
  format: 'csv',
  version: 3,
  total: 3,
  done: 3,
  rendered: 3,
  cached: 0,
  failed: 0,
  duplicates: 0,
  eta_seconds: null,
  max_rows: 1000,
  error: null,
  report: null,
  created_at: '2026-11-24T15:00:00.000Z',
  started_at: '2026-11-24T15:00:05.000Z',
  finished_at: '2026-11-24T15:00:09.000Z',
  starts_at: null,
  warm_capacity: null,
  ...fields,
});

/** The upload form with a CSV chosen and `start` typed in the field. */
async function chooseListAndStart(start: string) {
  const page = renderWithProviders(
    <SendListUpload
      designId="d1"
      parameters={['first_name']}
      maxRows={1000}
      onStarted={() => {}}
    />,
  );
  const file = new File(['first_name\nAna\n'], 'november.csv', { type: 'text/csv' });
  await page.user.upload(screen.getByLabelText('Send list (CSV or XLSX)'), file);
  fireEvent.change(screen.getByLabelText(FIELD), { target: { value: start } });
  await page.user.click(screen.getByRole('button', { name: 'Upload and pre-render' }));
  return page;
}

/** A `datetime-local` value `days` from now, at 09:00. */
const daysAhead = (days: number) =>
  `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T09:00`;

describe('campaign start on the send-list screen', () => {
  it('says the field is UTC, with its help', () => {
    renderWithProviders(
      <SendListUpload
        designId="d1"
        parameters={['first_name']}
        maxRows={null}
        onStarted={() => {}}
      />,
    );
    const field = screen.getByLabelText(FIELD);
    expect((field as HTMLInputElement).type).toBe('datetime-local');
    expect(descriptionOf(field)).toMatch(/When the first e-mails go out, in UTC \(now .+ UTC\)/);
    expect(descriptionOf(field)).toContain('within 30 days');
  });

  it('refuses a start in the past on the field, sending nothing', async () => {
    const created = answer('POST /api/pic-snippet/{id}/send-lists', 422, { message: 'unused' });
    await chooseListAndStart('2020-01-01T09:00');
    expectFieldError(screen.getByLabelText(FIELD), 'The campaign start must be in the future.');
    expect(created.requests).toHaveLength(0);
  });

  it('sends the start as UTC and shows the API’s refusal on the field', async () => {
    const created = answer('POST /api/pic-snippet/{id}/send-lists', 422, {
      message: 'The campaign start may be at most 30 days ahead.',
      errors: { starts_at: ['The campaign start may be at most 30 days ahead.'] },
    });
    const start = daysAhead(2);
    await chooseListAndStart(start);
    await screen.findByText('The campaign start may be at most 30 days ahead.');
    expect(created.requests[0]?.body).toMatchObject({
      file_name: 'november.csv',
      starts_at: `${start}:00.000Z`,
    });
    expectFieldError(
      screen.getByLabelText(FIELD),
      'The campaign start may be at most 30 days ahead.',
    );
  });

  it('shows a job’s start and warm capacity, and clears the start', async () => {
    const job = aJob({
      starts_at: '2026-12-01T09:00:00.000Z',
      warm_capacity: {
        capacity: 10,
        raise_at: '2026-12-01T08:45:00.000Z',
        lower_at: '2026-12-01T09:10:00.000Z',
        mode: 'online',
      },
    });
    const put = answer('PUT /api/pic-snippet/{id}/send-lists/{jobId}/starts-at', 200, {
      success: true,
      job: aJob(),
    });
    const page = renderWithProviders(<SendListStartsAt designId="d1" job={job} />);
    expect(
      screen.getByText(/The campaign starts at 1 Dec 2026, 09:00 UTC\./).textContent,
    ).toContain(
      '10 render instances are kept warm from 1 Dec 2026, 08:45 UTC to 1 Dec 2026, 09:10 UTC.',
    );
    expect((screen.getByLabelText(FIELD) as HTMLInputElement).value).toBe('2026-12-01T09:00');
    await page.user.click(screen.getByRole('button', { name: 'Clear the start' }));
    await screen.findByText('Saved.');
    expect(put.requests[0]?.body).toEqual({ starts_at: null });
    expect(put.requests[0]?.params).toEqual({ id: 'd1', jobId: 'job1' });
  });
});
