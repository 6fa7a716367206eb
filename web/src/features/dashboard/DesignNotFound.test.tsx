/**
 * The not-found state of the pages about one design (./DesignNotFound.tsx through
 * ./useDesignLoad.tsx; docs/adr/0020-dashboard-spa.md "Dashboard SPA": a design that is not the
 * current team's answers 404, as one that is not there): the show page, the editor and the export
 * screen each say the PicSnippet was not found, in the page title too, with the ways on.
 */
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { DesignShowPage } from '../../pages/DesignShowPage.tsx';
import { EditorPage } from '../../pages/EditorPage.tsx';
import { ExportPage } from '../../pages/ExportPage.tsx';
import { answer } from '../../test/api.ts';
import { aTeam, aUser } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';

const ID = 'design-does-not-exist';

/** `page` at `/pic-snippet/{ID}{screen}`, the design answered 404. */
function renderMissing(page: ReactElement, screenPath: string) {
  const read = answer('GET /api/pic-snippet/{id}', 404, { message: 'Not found.' });
  answer('GET /settings/companies/current', 200, aTeam());
  renderWithProviders(page, {
    route: `/pic-snippet/${ID}${screenPath}`,
    path: `/pic-snippet/:id${screenPath}`,
    signedInAs: aUser(),
  });
  return read;
}

/** Asserts the not-found state is shown, with its title and the ways on. */
async function expectNotFound() {
  await screen.findByRole('heading', { level: 1, name: 'This PicSnippet was not found' });
  expect(document.title).toBe('PicSnippet not found · PicSnippets');
  expect(screen.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe(
    '/dashboard',
  );
  expect(screen.getByRole('link', { name: 'Your teams' }).getAttribute('href')).toBe(
    '/settings#/companies',
  );
  expect(screen.queryByRole('alert')).toBeNull();
}

describe('a design that is not there', () => {
  it('gets the not-found state on its show page', async () => {
    const read = renderMissing(<DesignShowPage />, '');
    await expectNotFound();
    expect(read.requests[0]?.params).toEqual({ id: ID });
  });

  it('gets the same in the editor', async () => {
    renderMissing(<EditorPage />, '/edit');
    await expectNotFound();
  });

  it('gets the same on the export screen', async () => {
    answer('GET /api/merge-tag/storeFront', 200, []);
    renderMissing(<ExportPage />, '/export');
    await expectNotFound();
  });
});
