/**
 * A design's analytics page (./DesignAnalyticsPage.tsx; docs/analytics.md "The report"): the
 * totals as tiles and when they were rolled up, the chart's table with every day of the range
 * (zeros for days without counts), the breakdowns by count with their share of the
 * impressions, the collecting state, the failure with Retry, the range in the address (presets,
 * custom days, by the hour only for 7 days or fewer, the contract's refusal without a request),
 * the CSV export with its cells escaped, and the links to the page from the show page and the
 * dashboard's cards.
 *
 * The clock is set to 2026-03-10 12:30 UTC (only `Date` is faked: timers run), so "today" and
 * the presets' days are known; the chart's box is given a size happy-dom does not lay out.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsReport } from '#shared/contract/analytics.ts';
import type { AnswerOf } from '#shared/contract/index.ts';
import { csvCell, csvFileName, seriesCsv, toCsv } from '../features/analytics/csv.ts';
import { HOURLY_LIMIT_TEXT } from '../features/analytics/RangePicker.tsx';
import { filledSeries } from '../features/analytics/report.ts';
import { PROXY_NOTE } from '../features/analytics/ReportParts.tsx';
import { DesignList } from '../features/dashboard/DesignList.tsx';
import { answer } from '../test/api.ts';
import { descriptionOf } from '../test/expectations.ts';
import { aDesignCard, aTeam, aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { COLLECTING_TEXT, DesignAnalyticsPage } from './DesignAnalyticsPage.tsx';
import { DesignShowPage } from './DesignShowPage.tsx';

const NOW = new Date('2026-03-10T12:30:00Z');
const REPORT_ROUTE = 'GET /api/pic-snippet/{id}/analytics';

/** The design as `GET /api/pic-snippet/{id}` answers it: "Spring sale", `design-1`. */
function aDesign(): AnswerOf<'GET /api/pic-snippet/{id}'> {
  return {
    ...aDesignCard(),
    base_image_url: null,
    image_id: 'image-1',
    base_image_key: 'images/image-1.jpg',
    canvas_width: 900,
    canvas_height: 600,
    text_snippets: [],
    graphics_data: [],
  };
}

/** A report of the last 30 days with counts (rolled up half an hour before `NOW`). */
function aReport(fields: Partial<AnalyticsReport> = {}): AnalyticsReport {
  return {
    design_id: 'design-1',
    variants: [],
    optimiser: null,
    split: null,
    fallbacks: { refused: 0, rate_limited: 0, over_quota: 0, failed: 0 },
    from: '2026-02-09',
    to: '2026-03-10',
    granularity: 'day',
    totals: {
      opens: 1234,
      proxy_fetches: 766,
      impressions: 2000,
      clicks: 104,
      click_through_rate: 0.052,
      cdn_hit_ratio: 0.75,
      recipients: 321,
    },
    series: [
      {
        period: '2026-03-05',
        opens: 1000,
        proxy_fetches: 700,
        clicks: 100,
        cdn_hits: 1200,
        recipients: 300,
      },
      {
        period: '2026-03-08',
        opens: 234,
        proxy_fetches: 66,
        clicks: 4,
        cdn_hits: 300,
        recipients: 21,
      },
    ],
    devices: { desktop: 200, mobile: 600, unknown: 1200 },
    clients: { gmail: 500, apple: 266, other: 1234 },
    countries: { DE: 300, unknown: 1500, US: 200 },
    rolled_up_at: '2026-03-10T12:00:00.000Z',
    ...fields,
  };
}

function renderPage(search = '') {
  return renderWithProviders(<DesignAnalyticsPage />, {
    route: `/pic-snippet/design-1/analytics${search}`,
    path: '/pic-snippet/:id/analytics',
    signedInAs: aUser(),
  });
}

/** The value shown on the tile `name`. */
function tile(name: string): string | undefined {
  const totals = screen.getByRole('region', { name: 'Totals' });
  const term = within(totals).getByText(name, { selector: 'dt' });
  return term.nextElementSibling?.firstElementChild?.textContent ?? undefined;
}

/** The body rows of a table, each as its cells' texts (row header first). */
function rowsOf(table: HTMLElement): string[][] {
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
  );
}

/** The query of the newest report request. */
const lastQuery = (report: { requests: { query: URLSearchParams }[] }) =>
  Object.fromEntries(report.requests.at(-1)?.query ?? []);

/** The chart's size, px: happy-dom lays nothing out, and Recharts warns of a 0×0 chart. */
const CHART_BOX = new DOMRect(0, 0, 640, 288);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  // These designs have no poll (the poll section: features/polls/PollSection.test.tsx).
  answer('GET /api/pic-snippet/{id}/poll/votes', 404, { message: 'This design has no poll.' });
  const measure = HTMLElement.prototype.getBoundingClientRect;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.classList.contains('recharts-responsive-container')
      ? CHART_BOX
      : measure.call(this);
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a design’s analytics page', () => {
  it('shows the design, the totals as tiles and when they were rolled up', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    const report = answer(REPORT_ROUTE, 200, aReport());
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Analytics: Spring sale' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Spring sale' }).getAttribute('href')).toBe(
      '/pic-snippet/design-1',
    );
    await screen.findByRole('region', { name: 'Totals' });
    expect(tile('Opens')).toBe('1,234');
    expect(tile('Mail-proxy fetches')).toBe('766');
    expect(tile('Clicks')).toBe('104');
    expect(tile('Click-through rate')).toBe('5.2%');
    expect(tile('Recipients')).toBe('321');
    expect(tile('CDN hit ratio')).toBe('75%');
    expect(screen.getByTestId('last-updated').textContent).toContain('Last updated 30 minutes ago');
    // No range in the address: the last 30 days, by the day, asked for explicitly.
    expect(lastQuery(report)).toEqual({ from: '2026-02-09', to: '2026-03-10', granularity: 'day' });
    expect(report.requests[0]?.params).toEqual({ id: 'design-1' });
    expect(document.title).toBe('Analytics: Spring sale · PicSnippets');
  });

  it('says it is loading while the report is on its way', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    const report = answer(REPORT_ROUTE, 200, aReport(), { held: true });
    renderPage();
    const status = await screen.findByText('Loading analytics…');
    expect(status.closest('[aria-busy="true"]')).not.toBeNull();
    expect(screen.queryByRole('region', { name: 'Totals' })).toBeNull();
    report.release();
    await screen.findByRole('region', { name: 'Totals' });
    expect(screen.queryByText('Loading analytics…')).toBeNull();
  });

  it('lists every day of the range under the chart, zeros for the days without counts', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(REPORT_ROUTE, 200, aReport({ from: '2026-03-04', to: '2026-03-10' }));
    const { user } = renderPage('?from=2026-03-04&to=2026-03-10');
    await user.click(await screen.findByText('Show the numbers'));
    const table = screen.getByRole('table', {
      name: 'Opens, mail-proxy fetches and clicks by day (UTC)',
    });
    expect(rowsOf(table)).toEqual([
      ['4 Mar 2026', '0', '0', '0'],
      ['5 Mar 2026', '1,000', '700', '100'],
      ['6 Mar 2026', '0', '0', '0'],
      ['7 Mar 2026', '0', '0', '0'],
      ['8 Mar 2026', '234', '66', '4'],
      ['9 Mar 2026', '0', '0', '0'],
      ['10 Mar 2026', '0', '0', '0'],
    ]);
  });

  it('breaks the impressions down by device, client and country, most first, with shares', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(REPORT_ROUTE, 200, aReport());
    renderPage();
    const devices = await screen.findByRole('table', { name: 'Devices' });
    expect(rowsOf(devices)).toEqual([
      ['Unknown', '1,200', '60%'],
      ['Mobile', '600', '30%'],
      ['Desktop', '200', '10%'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'E-mail clients' }))).toEqual([
      ['Other (no proxy)', '1,234', '61.7%'],
      ['Gmail', '500', '25%'],
      ['Apple Mail', '266', '13.3%'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Countries' }))).toEqual([
      ['Unknown', '1,500', '75%'],
      ['Germany', '300', '15%'],
      ['United States', '200', '10%'],
    ]);
    expect(screen.getByText(PROXY_NOTE)).toBeTruthy();
  });

  it('lists a rules design’s variants with their clicks and rates, and none without rules', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(
      REPORT_ROUTE,
      200,
      aReport({
        variants: [
          {
            id: 'r1',
            name: 'Spring offer',
            impressions: 1200,
            clicks: 84,
            click_through_rate: 0.07,
          },
          {
            id: 'default',
            name: 'Default',
            impressions: 800,
            clicks: 20,
            click_through_rate: 0.025,
          },
        ],
        optimiser: {
          collecting: false,
          min_impressions: 100,
          winner: { id: 'r1', name: 'Spring offer', probability_best: 0.97 },
          weights: [
            { id: 'r1', weight: 0.92 },
            { id: 'default', weight: 0.08 },
          ],
        },
      }),
    );
    const { unmount } = renderPage();
    const variants = await screen.findByRole('table', { name: 'Variants' });
    expect(rowsOf(variants)).toEqual([
      ['Spring offer', '1,200', '84', '7%'],
      ['Default', '800', '20', '2.5%'],
    ]);
    expect(screen.getByTestId('variant-leader').textContent).toBe(
      'Leading: Spring offer, 97% likely to have the best click-through rate.',
    );
    expect(screen.queryByTestId('split-shares')).toBeNull();
    unmount();
    answer(
      REPORT_ROUTE,
      200,
      aReport({
        variants: [
          { id: 'r1', name: 'Spring offer', impressions: 900, clicks: 90, click_through_rate: 0.1 },
          { id: 'r2', name: 'Winter', impressions: 300, clicks: 3, click_through_rate: 0.01 },
          { id: 'default', name: 'Default', impressions: 0, clicks: 0, click_through_rate: null },
        ],
        split: {
          shares: [
            { id: 'r1', name: 'Spring offer', share: 0.9 },
            { id: 'r2', name: 'Winter', share: 0.1 },
          ],
          reweighed_at: null,
          collecting: false,
        },
      }),
    );
    const optimised = renderPage();
    expect((await screen.findByTestId('split-shares')).textContent).toBe(
      'Optimise for clicks: Spring offer 90%, Winter 10% (not reweighed yet).',
    );
    optimised.unmount();
    answer(
      REPORT_ROUTE,
      200,
      aReport({
        variants: [
          { id: 'r1', name: 'Spring offer', impressions: 20, clicks: 1, click_through_rate: 0.05 },
          { id: 'default', name: 'Default', impressions: 10, clicks: 0, click_through_rate: 0 },
        ],
        optimiser: { collecting: true, min_impressions: 100, winner: null, weights: [] },
      }),
    );
    const again = renderPage();
    await screen.findByRole('table', { name: 'Variants' });
    expect(screen.getByTestId('variant-leader').textContent).toBe(
      'Collecting: each variant needs 100 impressions before a leader is named.',
    );
    again.unmount();
    answer(REPORT_ROUTE, 200, aReport());
    renderPage();
    await screen.findByRole('table', { name: 'Devices' });
    expect(screen.queryByRole('table', { name: 'Variants' })).toBeNull();
  });

  it('says how many fallback images were served and why, and nothing when none were', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(
      REPORT_ROUTE,
      200,
      aReport({ fallbacks: { refused: 1, rate_limited: 0, over_quota: 1200, failed: 2 } }),
    );
    const { unmount } = renderPage();
    expect((await screen.findByTestId('fallbacks')).textContent).toBe(
      '1,203 fallback images served instead of the personalised one: 1,200 past the monthly render quota; 1 unsigned or changed signed URLs; 2 renders that failed.',
    );
    unmount();
    answer(REPORT_ROUTE, 200, aReport());
    renderPage();
    await screen.findByRole('table', { name: 'Devices' });
    expect(screen.queryByTestId('fallbacks')).toBeNull();
  });

  it('says the counts are still being collected when the range has none', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(
      REPORT_ROUTE,
      200,
      aReport({
        totals: {
          opens: 0,
          proxy_fetches: 0,
          impressions: 0,
          clicks: 0,
          click_through_rate: null,
          cdn_hit_ratio: null,
          recipients: 0,
        },
        series: [],
        devices: {},
        clients: {},
        countries: {},
        rolled_up_at: null,
      }),
    );
    renderPage();
    expect(await screen.findByText(COLLECTING_TEXT)).toBeTruthy();
    expect(tile('Click-through rate')).toBe('—');
    expect(tile('CDN hit ratio')).toBe('—');
    expect(tile('Opens')).toBe('0');
    expect(screen.getByTestId('last-updated').textContent).toContain('Not counted yet');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
  });

  it('says why the report could not be loaded, and reads it again on Retry', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    const failing = answer(REPORT_ROUTE, 500, { message: 'Server Error' });
    const { user } = renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The analytics could not be loaded');
    expect(alert.textContent).toContain('Server Error');
    const working = answer(REPORT_ROUTE, 200, aReport());
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('region', { name: 'Totals' });
    expect(tile('Opens')).toBe('1,234');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(failing.requests).toHaveLength(1);
    expect(working.requests).toHaveLength(1);
  });

  it('asks for a preset’s days and keeps them in the address', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    const report = answer(REPORT_ROUTE, 200, aReport());
    const { user, router } = renderPage();
    await screen.findByRole('region', { name: 'Totals' });
    const range = screen.getByRole('group', { name: 'Range' });
    expect(
      within(range).getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed'),
    ).toBe('true');

    const week = answer(REPORT_ROUTE, 200, aReport({ from: '2026-03-04', to: '2026-03-10' }));
    await user.click(within(range).getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() => expect(week.requests).toHaveLength(1));
    expect(lastQuery(week)).toEqual({ from: '2026-03-04', to: '2026-03-10', granularity: 'day' });
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('from')).toBe('2026-03-04');
    expect(search.get('to')).toBe('2026-03-10');
    expect(
      within(range).getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect((screen.getByLabelText('From (UTC)') as HTMLInputElement).value).toBe('2026-03-04');

    // Seven days may be shown by the hour.
    const hourly = answer(
      REPORT_ROUTE,
      200,
      aReport({ from: '2026-03-04', to: '2026-03-10', granularity: 'hour', series: [] }),
    );
    await user.click(screen.getByRole('button', { name: 'By hour' }));
    await waitFor(() => expect(hourly.requests).toHaveLength(1));
    expect(lastQuery(hourly)).toEqual({
      from: '2026-03-04',
      to: '2026-03-10',
      granularity: 'hour',
    });
    expect(new URLSearchParams(router.state.location.search).get('granularity')).toBe('hour');
    expect(report.requests).toHaveLength(1);
  });

  it('does not offer hours for 30 days, and says why', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    const report = answer(REPORT_ROUTE, 200, aReport());
    const { user, router } = renderPage('?from=2026-02-09&to=2026-03-10');
    await screen.findByRole('region', { name: 'Totals' });
    const hour = screen.getByRole('button', { name: 'By hour' });
    expect(hour.getAttribute('aria-disabled')).toBe('true');
    expect(descriptionOf(hour)).toBe(HOURLY_LIMIT_TEXT);
    await user.click(hour);
    expect(hour.getAttribute('aria-pressed')).toBe('false');
    expect(router.state.location.search).toBe('?from=2026-02-09&to=2026-03-10');
    expect(report.requests).toHaveLength(1);
  });

  it('asks for custom days typed into From', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(REPORT_ROUTE, 200, aReport());
    const { router } = renderPage();
    await screen.findByRole('region', { name: 'Totals' });
    const custom = answer(REPORT_ROUTE, 200, aReport({ from: '2026-01-01', to: '2026-03-10' }));
    fireEvent.change(screen.getByLabelText('From (UTC)'), { target: { value: '2026-01-01' } });
    await waitFor(() => expect(custom.requests).toHaveLength(1));
    expect(lastQuery(custom)).toEqual({ from: '2026-01-01', to: '2026-03-10', granularity: 'day' });
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-01-01');
  });

  it('refuses a range that ends before it starts with the contract’s message, asking nothing', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    const report = answer(REPORT_ROUTE, 200, aReport());
    renderPage('?from=2026-03-10&to=2026-03-01');
    const to = await screen.findByLabelText('To (UTC)');
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(to)).toContain('The range must end on or after its start.');
    expect(screen.queryByText('Loading analytics…')).toBeNull();
    expect(report.requests).toHaveLength(0);
  });

  it('exports the range’s days as CSV, zeros included', async () => {
    answer('GET /api/pic-snippet/{id}', 200, aDesign());
    answer(REPORT_ROUTE, 200, aReport({ from: '2026-03-04', to: '2026-03-10' }));
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:http://localhost:3000/analytics';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(`${this.download} ${this.href}`);
    });
    const { user } = renderPage('?from=2026-03-04&to=2026-03-10');
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(downloads).toEqual([
      'analytics-design-1-2026-03-04-2026-03-10.csv blob:http://localhost:3000/analytics',
    ]);
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
    const lines = (await blobs[0]!.text()).split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'period,opens,proxy_fetches,clicks,cdn_hits,recipients',
      '2026-03-04,0,0,0,0,0',
      '2026-03-05,1000,700,100,1200,300',
    ]);
    expect(lines).toHaveLength(9); // the header, 7 days, and the last line's end
  });
});

describe('the ways to a design’s analytics', () => {
  // docs/analytics.md "Campaigns": the saved campaign is read back on both pages.
  it('shows the design’s saved campaign on its page and its analytics, linked to the campaign', async () => {
    answer('GET /api/pic-snippet/{id}', 200, { ...aDesign(), campaign: 'Spring & summer' });
    answer('GET /settings/companies/current', 200, aTeam());
    const show = renderWithProviders(<DesignShowPage />, {
      route: '/pic-snippet/design-1',
      path: '/pic-snippet/:id',
      signedInAs: aUser(),
    });
    const field = (await screen.findByRole('combobox', {
      name: 'Campaign name',
    })) as HTMLInputElement;
    expect(field.value).toBe('Spring & summer');
    expect(screen.getByRole('button', { name: 'Remove from campaign' })).toBeTruthy();
    show.unmount();
    answer(REPORT_ROUTE, 200, aReport());
    renderPage();
    const link = await screen.findByRole('link', { name: 'Spring & summer' });
    expect(link.getAttribute('href')).toBe('/campaigns/report?campaign=Spring%20%26%20summer');
  });

  it('links the show page to the analytics', async () => {
    const preview_url = 'http://localhost:3000/r/public-design-1';
    answer('GET /api/pic-snippet/{id}', 200, { ...aDesign(), preview_url });
    answer('GET /settings/companies/current', 200, aTeam());
    renderWithProviders(<DesignShowPage />, {
      route: '/pic-snippet/design-1',
      path: '/pic-snippet/:id',
      signedInAs: aUser(),
    });
    const link = await screen.findByRole('link', { name: 'Analytics' });
    expect(link.getAttribute('href')).toBe('/pic-snippet/design-1/analytics');
  });

  it('links each dashboard card to its design’s analytics, and no template card', async () => {
    const page = (cards: ReturnType<typeof aDesignCard>[]) => ({
      data: cards,
      current_page: 1,
      next_page: null,
      cursor: null,
      per_page: 15,
    });
    answer('GET /getActive', 200, { active: page([aDesignCard()]) });
    const active = renderWithProviders(
      <DesignList view="active" sort="" tag="" frozen={false} frozenHintId="frozen" />,
      { route: '/dashboard', signedInAs: aUser() },
    );
    const link = await screen.findByRole('link', { name: 'Analytics Spring sale' });
    expect(link.getAttribute('href')).toBe('/pic-snippet/design-1/analytics');
    active.unmount();

    answer('GET /getHomeTemplates', 200, {
      templates: page([aDesignCard({ isTemplate: true, title: 'Sale banner' })]),
    });
    renderWithProviders(
      <DesignList view="templates" sort="" tag="" frozen={false} frozenHintId="frozen" />,
      { route: '/dashboard', signedInAs: aUser() },
    );
    await screen.findByRole('button', { name: 'Use this template Sale banner' });
    expect(screen.queryByRole('link', { name: /^Analytics/ })).toBeNull();
  });
});

describe('the series filled out', () => {
  it('gives every hour of the range up to the current one, recipients not known', () => {
    const points = filledSeries(
      aReport({
        from: '2026-03-09',
        to: '2026-03-10',
        granularity: 'hour',
        series: [
          {
            period: '2026-03-10T03',
            opens: 5,
            proxy_fetches: 1,
            clicks: 1,
            cdn_hits: 2,
            recipients: null,
          },
        ],
      }),
      NOW,
    );
    // 24 hours of the 9th and 00–12 of the 10th: the clock says 12:30.
    expect(points).toHaveLength(37);
    expect(points[0]).toEqual({
      period: '2026-03-09T00',
      opens: 0,
      proxy_fetches: 0,
      clicks: 0,
      cdn_hits: 0,
      recipients: null,
    });
    expect(points.at(-1)?.period).toBe('2026-03-10T12');
    expect(points.find((p) => p.period === '2026-03-10T03')?.opens).toBe(5);
  });
});

describe('the analytics CSV', () => {
  it('quotes cells holding a comma, a quote or a line break, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
  });

  it('keeps text that starts like a formula from being read as one', () => {
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tTAB')).toBe("'\tTAB");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers as they are and nothing as an empty cell', () => {
    expect(csvCell(42)).toBe('42');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('ends every line with CRLF, and writes an hour’s recipients empty', () => {
    expect(
      toCsv([
        ['a', 'b,c'],
        [1, null],
      ]),
    ).toBe('a,"b,c"\r\n1,\r\n');
    expect(
      seriesCsv([
        {
          period: '2026-03-09T14',
          opens: 3,
          proxy_fetches: 1,
          clicks: 0,
          cdn_hits: 2,
          recipients: null,
        },
      ]),
    ).toBe('period,opens,proxy_fetches,clicks,cdn_hits,recipients\r\n2026-03-09T14,3,1,0,2,\r\n');
  });

  it('names the file after the design and the range, safely', () => {
    expect(csvFileName('design-1', '2026-03-04', '2026-03-10')).toBe(
      'analytics-design-1-2026-03-04-2026-03-10.csv',
    );
    expect(csvFileName('a/b c', '2026-03-04', '2026-03-10')).toBe(
      'analytics-a-b-c-2026-03-04-2026-03-10.csv',
    );
  });
});
