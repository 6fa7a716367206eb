/**
 * The design viewer of the show page (./DesignViewer.tsx; docs/adr/0020-dashboard-spa.md "Dashboard
 * SPA": "A viewer component shows a design as image or as PDF"): the image first, the PDF render
 * (`{base_url}/pdf`) in a frame for a plan with PDF export, and the plan's message with the way to
 * upgrade for one without.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DesignDetails } from '../../api/designs.ts';
import { aDesignCard } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { DesignViewer, PRO_ONLY_MESSAGE } from './DesignViewer.tsx';

// Node's console, where happy-dom's window prints (a name, so the SPA's types need no Node's).
const NODE_CONSOLE = 'node:console';
const nodeConsole = ((await import(/* @vite-ignore */ NODE_CONSOLE)) as { default: Console })
  .default;

/** Spring sale as the show page reads it: 900×600, no parameters, a preview that loads nothing. */
const DESIGN: DesignDetails = {
  ...aDesignCard({ preview_url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }),
  canvas_width: 900,
  canvas_height: 600,
  text_snippets: [],
};
const PDF_URL = 'http://localhost:3000/r/public-design-1/pdf';

function renderViewer(canExportPdf: boolean) {
  return renderWithProviders(
    <DesignViewer
      design={DESIGN}
      canExportPdf={canExportPdf}
      upgradePath="/settings/companies/team-1#/subscription"
    />,
  );
}

describe('the design viewer', () => {
  it('shows the image first, and the PDF render in a frame on PDF for a plan with PDF export', async () => {
    // happy-dom loads no frame, and says so on Node's console: that line is this test's doing.
    const error = nodeConsole.error.bind(nodeConsole);
    vi.spyOn(nodeConsole, 'error').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).includes('Iframe page loading is disabled')) error(...args);
    });
    const { user } = renderViewer(true);
    const image = screen.getByRole('button', { name: 'Image' });
    const pdf = screen.getByRole('button', { name: 'PDF' });
    expect(image.getAttribute('aria-pressed')).toBe('true');
    expect(pdf.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('img', { name: 'Spring sale' })).toBeTruthy();

    await user.click(pdf);
    expect(pdf.getAttribute('aria-pressed')).toBe('true');
    const frame = screen.getByTitle('Spring sale as a PDF');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(PDF_URL);
    expect(
      screen.getByRole('link', { name: 'Open the PDF in a new tab' }).getAttribute('href'),
    ).toBe(PDF_URL);
    expect(screen.queryByRole('img', { name: 'Spring sale' })).toBeNull();

    await user.click(image);
    expect(screen.getByRole('img', { name: 'Spring sale' })).toBeTruthy();
    expect(screen.queryByTitle('Spring sale as a PDF')).toBeNull();
  });

  it('says PDF is for Pro plans, with the way to upgrade, for a plan without PDF export', async () => {
    const { user } = renderViewer(false);
    await user.click(screen.getByRole('button', { name: 'PDF' }));
    expect(screen.queryByTitle('Spring sale as a PDF')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain(PRO_ONLY_MESSAGE);
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/settings/companies/team-1#/subscription',
    );
  });
});
