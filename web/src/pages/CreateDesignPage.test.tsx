/**
 * Starting a design from a picture (./CreateDesignPage.tsx; docs/adr/0020-dashboard-spa.md
 * "Dashboard SPA"): `?base_image=` creates the design once and replaces the address with its
 * editor, so Back does not create a second one; a refused creation says why and offers the way on.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { aDesignCard, aTeam, aUser } from '../test/fixtures.ts';
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

describe('the picture gallery', () => {
  const picture = (id: string, title: string, created_at: string | null) => ({
    id,
    title,
    thumb: `/files/library/${id}-thumb.jpg`,
    url: `/files/library/${id}.jpg`,
    width: 1200,
    height: id === 'tall' ? 1800 : 800,
    author: 'Ana',
    author_url: null,
    licence: 'CC BY 4.0',
    created_at,
  });

  it('shows "Use this Pic" cards with the title and date, and a masonry of "Edit Image"', async () => {
    answer('GET /settings/companies/current', 200, aTeam());
    answer('GET /getGlobalImages', 200, {
      data: [
        picture('autumn', 'Autumn leaves', '2026-11-22T10:00:00.000Z'),
        picture('tall', 'Tall tree', null),
      ],
      current_page: 1,
      last_page: 1,
    });
    const { user } = renderWithProviders(<CreateDesignPage />, {
      route: '/pic-snippet/create',
      path: '/pic-snippet/create',
      signedInAs: aUser(),
    });
    const cards = await screen.findAllByTestId('picture-card');
    expect(cards[0]!.textContent).toContain('Autumn leaves');
    expect(cards[0]!.querySelector('time')?.textContent).toBe('22 Nov 2026');
    // No date known: no date line.
    expect(cards[1]!.querySelector('time')).toBeNull();
    // The credit in words, its licence behind a link to the licence's text.
    expect(cards[0]!.querySelector('.picture-card__credit:last-of-type')?.textContent).toBe(
      'Photo by Ana · licence CC BY 4.0',
    );
    const licence = within(cards[0]!).getByRole('link', { name: 'licence CC BY 4.0' });
    expect(licence.getAttribute('href')).toBe('https://spdx.org/licenses/CC-BY-4.0.html');
    const use = screen.getByRole('link', { name: 'Use this Pic Autumn leaves' });
    expect(use.getAttribute('href')).toBe('/pic-snippet/create?base_image=autumn&from=library');
    expect(screen.getByRole('button', { name: 'Cards' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Masonry' }));
    expect(screen.queryByTestId('picture-grid')).toBeNull();
    const tiles = screen.getAllByTestId('masonry-card');
    expect(tiles).toHaveLength(2);
    const tall = screen.getByRole('img', { name: 'Tall tree' });
    expect([tall.getAttribute('width'), tall.getAttribute('height')]).toEqual(['1200', '1800']);
    expect(
      screen.getByRole('link', { name: 'Edit Image Autumn leaves' }).getAttribute('href'),
    ).toBe('/pic-snippet/create?base_image=autumn&from=library');
  });

  it("uploads the user's own photo and creates the design on it", async () => {
    answer('GET /settings/companies/current', 200, aTeam());
    answer('GET /getGlobalImages', 200, { data: [], current_page: 1, last_page: 1 });
    const upload = answer('POST /image', 201, {
      success: true,
      image: {
        id: 'upload-1',
        title: 'shop.jpg',
        thumb: null,
        url: '/files/uploads/upload-1.jpg',
        width: 1200,
        height: 800,
        author: null,
        author_url: null,
        licence: null,
      },
    });
    const create = answer('POST /api/pic-snippet', 201, created);
    const { user, router } = renderWithProviders(<CreateDesignPage />, {
      route: '/pic-snippet/create',
      path: '/pic-snippet/create',
      signedInAs: aUser(),
    });
    const input = await screen.findByLabelText('Upload your own photo');
    await user.upload(input, new File(['jpeg'], 'shop.jpg', { type: 'image/jpeg' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/pic-snippet/design-new/edit'),
    );
    expect(upload.requests).toHaveLength(1);
    expect(create.requests[0]?.body).toEqual({ image_id: 'upload-1' });
  });
});
