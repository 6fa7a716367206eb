/**
 * The route error page (./RouteErrorPage.tsx; docs/adr/0068-failed-page-loads.md "Failed page
 * loads"): a part of the app that could not be loaded (a deploy removed its file, the network
 * dropped) offers a reload of the same page; any other failure says something went wrong and links
 * home.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, RouteErrorPage } from './RouteErrorPage.tsx';

/** A router whose only page throws `error` while it renders. */
function renderFailing(error: unknown) {
  function Failing(): never {
    throw error;
  }
  const router = createMemoryRouter(
    [{ path: '/', element: <Failing />, errorElement: <RouteErrorPage /> }],
    { initialEntries: ['/'] },
  );
  return render(<RouterProvider router={router} />);
}

afterEach(() => vi.restoreAllMocks());

describe('the route error page', () => {
  it('offers a reload of the page when a chunk of the app could not be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    renderFailing(
      new TypeError(
        'Failed to fetch dynamically imported module: https://app.example/assets/SettingsPage-1a2b.js',
      ),
    );
    expect(screen.getByRole('heading', { name: 'Reload to continue' })).toBeTruthy();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(document.title).toContain('Reload to continue');
    await userEvent.click(screen.getByRole('button', { name: 'Reload this page' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('says something went wrong, with a way home, for any other failure', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderFailing(new Error('Cannot read properties of undefined'));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reload the home page' }).getAttribute('href')).toBe(
      '/',
    );
    expect(screen.queryByRole('button', { name: 'Reload this page' })).toBeNull();
  });

  it("knows the browsers' words for a module that could not be loaded", () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://a/x.js',
      'error loading dynamically imported module: https://a/x.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/x.css',
    ]) {
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
    }
    expect(isChunkLoadError(new Error('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
