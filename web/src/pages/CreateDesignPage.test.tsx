/**
 * Starting a design from a picture (./CreateDesignPage.tsx; docs/decisions.md "Dashboard SPA"):
 * `?base_image=` creates the design once and replaces the address with its editor, so Back does
 * not create a second one; a refused creation says why and offers the way on.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { aDesignCard, aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { CreateDesignPage } from './CreateDesignPage.tsx';

const created = {
  ...aDesignCard({ id: 'design-new', title: 'Autumn leaves' }),
  base_image_url: null,
  image_id: 'library-autumn',
  base_image_key: 'library/autumn.jpg',
  canvas_width: 1000,
  canvas_height: 625,
  text_snippets: [],
  graphics_data: [],
};

describe('creating a design from a picture', () => {
  it('creates it once and opens it in the editor, replacing the create address', async () => {
    const create = answer('POST /api/pic-snippet', 201, created);
    const { router } = renderWithProviders(<CreateDesignPage />, {
      route: '/pic-snippet/create?base_image=library-autumn&from=library',
      path: '/pic-snippet/create',
      signedInAs: aUser(),
    });
    expect(screen.getByRole('heading', { name: 'Creating your PicSnippet' })).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/pic-snippet/design-new/edit'),
    );
    expect(create.requests).toHaveLength(1);
    expect(create.requests[0]?.body).toEqual({ image_id: 'library-autumn' });
    // Replaced, not pushed: Back leaves the create address behind.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('says why a creation was refused and offers another picture', async () => {
    answer('POST /api/pic-snippet', 403, { message: 'This team is frozen.' });
    renderWithProviders(<CreateDesignPage />, {
      route: '/pic-snippet/create?base_image=library-autumn',
      path: '/pic-snippet/create',
      signedInAs: aUser(),
    });
    expect(
      await screen.findByRole('heading', { name: 'Your PicSnippet was not created' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This team is frozen.');
    expect(screen.getByRole('link', { name: 'Pick another picture' }).getAttribute('href')).toBe(
      '/pic-snippet/create',
    );
  });
});
