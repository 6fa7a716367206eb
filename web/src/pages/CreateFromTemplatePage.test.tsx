/**
 * A template link opened in the browser (./CreateFromTemplatePage.tsx;
 * docs/adr/0019-design-api-shapes.md "Design API shapes"): opening it creates nothing; "Create my
 * design" does, once, and opens the copy in the editor in place of the link; a refusal says why and
 * keeps the button.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../test/api.ts';
import { aUser } from '../test/fixtures.ts';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { CreateFromTemplatePage } from './CreateFromTemplatePage.tsx';

const ROUTE = '/pic-snippet/template-autumn/createFromTemplate';
const PATH = '/pic-snippet/:id/createFromTemplate';

describe('a template link opened in the browser', () => {
  it('creates nothing until asked, then creates once and opens the editor in its place', async () => {
    const create = answer('POST /pic-snippet/{id}/createFromTemplate', 201, {
      success: true,
      newPicSnippetId: 'design-copy',
    });
    const { user, router } = renderWithProviders(<CreateFromTemplatePage />, {
      route: ROUTE,
      path: PATH,
      signedInAs: aUser(),
    });
    expect(screen.getByRole('heading', { name: 'Make a design from this template' })).toBeTruthy();
    expect(create.requests).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Create my design' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/pic-snippet/design-copy/edit'),
    );
    expect(create.requests).toHaveLength(1);
    expect(create.requests[0]?.params).toEqual({ id: 'template-autumn' });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('says why when the template is not available, and lets the user try again', async () => {
    answer('POST /pic-snippet/{id}/createFromTemplate', 404, {
      message: 'This template is not available.',
    });
    const { user } = renderWithProviders(<CreateFromTemplatePage />, {
      route: ROUTE,
      path: PATH,
      signedInAs: aUser(),
    });
    await user.click(screen.getByRole('button', { name: 'Create my design' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This template is not available.',
    );
    expect(
      (screen.getByRole('button', { name: 'Create my design' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('sends a signed-out visitor to sign in first', async () => {
    const { router } = renderWithProviders(<CreateFromTemplatePage />, {
      route: ROUTE,
      path: PATH,
      signedInAs: null,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
