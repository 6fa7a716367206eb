/**
 * The export screen's hints for live content (./OpenTimeHints.tsx; docs/export.md "Open-time
 * hints"): a poll names its voter parameter and how old its results may be, a weather sticker
 * its place parameter and the reader's place, a web crop its refresh; a design without any says
 * nothing.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openTimeFacts } from './openTime.ts';
import { OpenTimeHints } from './OpenTimeHints.tsx';

const hints = (graphics_data: unknown[]) =>
  render(<OpenTimeHints facts={openTimeFacts({ graphics_data })} />);

describe('live content hints', () => {
  it('tell a poll’s voter parameter and how old its results may be', () => {
    hints([
      {
        dynamicStickerType: 'poll',
        poll: { voter_parameter: 'email', results_ttl_s: 300, options: [] },
      },
    ]);
    const notice = screen
      .getByText('A poll votes through its answer buttons')
      .closest('div')!.parentElement!;
    expect(notice.textContent).toContain("the URL's value of email");
    expect(notice.textContent).toContain('up to 5 minutes ago');
  });

  it('tell a weather sticker’s place parameter and the reader’s place', () => {
    hints([
      {
        dynamicStickerType: 'weather',
        dynamicStickerParamName: 'city',
        weather: { use_viewer_place: true },
      },
    ]);
    const text = screen.getByTestId('export-open-time-hints').textContent!;
    expect(text).toContain('The place comes from city');
    expect(text).toContain("the reader's own place is used");
  });

  it('tell a web crop’s shortest refresh, and nothing for a design without live content', () => {
    hints([
      { dynamicStickerType: 'screenShot', crop: { selector: '#a', refresh_s: 7200 } },
      { dynamicStickerType: 'screenShot', crop: { selector: '#b', refresh_s: 90 } },
    ]);
    expect(screen.getByTestId('export-open-time-hints').textContent).toContain(
      'as it was up to 90 seconds ago',
    );
  });

  it('say nothing without live content', () => {
    const { container } = hints([{ dynamicStickerType: 'qrCode' }]);
    expect(container.textContent).toBe('');
  });
});
