/**
 * Campaigns in the SPA (docs/analytics.md "Campaigns"): a design's campaign field on its page
 * (saved with the design's version, a refused name under the field, removal), the team's
 * campaigns with their empty state, and a campaign's report: its designs' sums as tiles, each
 * design's line linking to its own analytics, and the state of a campaign no design carries.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CampaignReport } from '#shared/contract/campaigns.ts';
import { CampaignField } from '../features/analytics/CampaignField.tsx';
import { answer } from '../test/api.ts';
import { aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { CampaignReportPage } from './CampaignReportPage.tsx';
import { CampaignsPage, NO_CAMPAIGNS_TEXT } from './CampaignsPage.tsx';

/** A report of "Spring sale": two designs, one archived. */
function aCampaignReport(fields: Partial<CampaignReport> = {}): CampaignReport {
  return {
    campaign: 'Spring sale',
    from: '2026-02-09',
    to: '2026-03-10',
    granularity: 'day',
    totals: {
      opens: 30,
      proxy_fetches: 10,
      impressions: 40,
      clicks: 4,
      click_through_rate: 0.1,
      cdn_hit_ratio: 0.5,
      recipients: 25,
    },
    series: [
      {
        period: '2026-03-09',
        opens: 30,
        proxy_fetches: 10,
        clicks: 4,
        cdn_hits: 22,
        recipients: 25,
      },
    ],
    devices: { mobile: 30, unknown: 10 },
    clients: { gmail: 10, other: 30 },
    countries: { FR: 40 },
    fallbacks: { refused: 0, rate_limited: 0, over_quota: 0, failed: 0 },
    rolled_up_at: '2026-03-10T12:00:00.000Z',
    designs: [
      {
        id: 'design-1',
        title: 'Hero banner',
        status: 'active',
        impressions: 30,
        clicks: 3,
        click_through_rate: 0.1,
      },
      {
        id: 'design-2',
        title: 'Old footer',
        status: 'archived',
        impressions: 10,
        clicks: 1,
        click_through_rate: 0.1,
      },
    ],
    truncated: false,
    ...fields,
  };
}

/** The body rows of a table, each as its cells' texts (row header first). */
const rowsOf = (table: HTMLElement): string[][] =>
  [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
  );

describe('a design’s campaign field', () => {
  const render = (campaign: string | null, saved: unknown[] = []) =>
    renderWithProviders(
      <CampaignField
        designId="design-1"
        version={7}
        campaign={campaign}
        onSaved={(s) => saved.push(s)}
      />,
      { signedInAs: aUser() },
    );

  it('saves a name with the design’s version and offers the team’s campaigns', async () => {
    answer('GET /api/campaigns', 200, { campaigns: [{ name: 'Spring sale', designs: 2 }] });
    const put = answer('PUT /api/pic-snippet/{id}/campaign', 200, {
      success: true,
      version: 8,
      title: 'Hero banner',
      updated_at: '2026-03-10T12:00:00.000Z',
      campaign: 'Spring sale',
    });
    const saved: unknown[] = [];
    const { user } = render(null, saved);
    const field = screen.getByRole('combobox', { name: 'Campaign name' });
    const save = screen.getByRole('button', { name: 'Save campaign' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    // The team's campaigns are offered as the field's suggestions once it is used.
    await user.click(field);
    await waitFor(() =>
      expect(
        document.querySelector(`#${field.getAttribute('list')} option`)?.getAttribute('value'),
      ).toBe('Spring sale'),
    );
    await user.type(field, '  Spring   sale {Enter}');
    expect((await screen.findByRole('status')).textContent).toBe('Saved: in Spring sale.');
    expect(put.requests[0]?.params).toEqual({ id: 'design-1' });
    expect(put.requests[0]?.body).toEqual({ version: 7, campaign: 'Spring sale' });
    expect(saved).toEqual([expect.objectContaining({ version: 8, campaign: 'Spring sale' })]);
  });

  it('shows a refused name under the field, and removes the design from its campaign', async () => {
    answer('GET /api/campaigns', 200, { campaigns: [] });
    answer('PUT /api/pic-snippet/{id}/campaign', 422, {
      success: false,
      message: 'The given data was invalid.',
      errors: { campaign: ['The campaign may not be greater than 60 characters.'] },
    });
    const { user } = render('Autumn');
    expect(
      screen.getByRole('link', { name: 'Analytics of the campaign Autumn' }).getAttribute('href'),
    ).toBe('/campaigns/report?campaign=Autumn');
    const field = screen.getByRole('combobox', { name: 'Campaign name' });
    await user.clear(field);
    await user.type(field, 'x'.repeat(61));
    await user.click(screen.getByRole('button', { name: 'Save campaign' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '! The campaign may not be greater than 60 characters.',
    );
    expect(field.getAttribute('aria-invalid')).toBe('true');

    const removed = answer('PUT /api/pic-snippet/{id}/campaign', 200, {
      success: true,
      version: 8,
      title: 'Hero banner',
      updated_at: '2026-03-10T12:00:00.000Z',
      campaign: null,
    });
    await user.click(screen.getByRole('button', { name: 'Remove from campaign' }));
    expect((await screen.findByRole('status')).textContent).toBe('Saved: in no campaign.');
    expect(removed.requests[0]?.body).toEqual({ version: 7, campaign: null });
  });
});

describe('the campaigns page', () => {
  const render = () =>
    renderWithProviders(<CampaignsPage />, {
      route: '/campaigns',
      path: '/campaigns',
      signedInAs: aUser(),
    });

  it('lists the team’s campaigns with their designs, each linking to its report', async () => {
    answer('GET /api/campaigns', 200, {
      campaigns: [
        { name: 'Autumn', designs: 1 },
        { name: 'Spring & summer', designs: 3 },
      ],
    });
    render();
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    expect(rowsOf(table)).toEqual([
      ['Autumn', '1'],
      ['Spring & summer', '3'],
    ]);
    expect(within(table).getByRole('link', { name: 'Spring & summer' }).getAttribute('href')).toBe(
      '/campaigns/report?campaign=Spring%20%26%20summer',
    );
    expect(document.title).toBe('Campaigns · PicSnippets');
  });

  it('says how to start when there is none', async () => {
    answer('GET /api/campaigns', 200, { campaigns: [] });
    render();
    expect(await screen.findByText(NO_CAMPAIGNS_TEXT)).toBeTruthy();
  });
});

describe('a campaign’s report', () => {
  const render = (search: string) =>
    renderWithProviders(<CampaignReportPage />, {
      route: `/campaigns/report${search}`,
      path: '/campaigns/report',
      signedInAs: aUser(),
    });

  it('adds up the campaign’s designs and lists each with a link to its analytics', async () => {
    const report = answer('GET /api/campaigns/report', 200, aCampaignReport());
    render('?campaign=Spring%20sale&from=2026-03-01&to=2026-03-10');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Campaign: Spring sale' }),
    ).toBeTruthy();
    const designs = await screen.findByRole('table', { name: 'PicSnippets of the campaign' });
    expect(rowsOf(designs)).toEqual([
      ['Hero banner', '30', '3', '10%'],
      ['Old footerArchived', '10', '1', '10%'],
    ]);
    expect(within(designs).getByRole('link', { name: 'Hero banner' }).getAttribute('href')).toBe(
      '/pic-snippet/design-1/analytics',
    );
    const totals = screen.getByRole('region', { name: 'Totals' });
    const clicks = within(totals).getByText('Clicks', { selector: 'dt' }).nextElementSibling;
    expect(clicks?.textContent).toContain('4');
    expect(clicks?.textContent).toContain('Clicks of the links of the campaign’s designs.');
    expect(Object.fromEntries(report.requests[0]!.query)).toEqual({
      campaign: 'Spring sale',
      from: '2026-03-01',
      to: '2026-03-10',
      granularity: 'day',
    });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('says when no design of the team carries the campaign', async () => {
    answer('GET /api/campaigns/report', 404, {
      success: false,
      message: 'No design of your team is in this campaign.',
    });
    render('?campaign=Nothing');
    expect(
      await screen.findByText(/None of your team's PicSnippets carries the campaign/),
    ).toBeTruthy();
  });

  it('says so when the address names no campaign, without asking', async () => {
    const report = answer('GET /api/campaigns/report', 200, aCampaignReport());
    render('');
    expect(await screen.findByText(/This address names no campaign/)).toBeTruthy();
    expect(report.requests).toHaveLength(0);
  });
});
