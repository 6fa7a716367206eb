/**
 * The terms of service page (./TermsPage.tsx, docs/accounts.md "Terms of service"): what a person
 * who follows registration's terms link reads, and the way back.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { TermsPage } from './TermsPage.tsx';

describe('the terms of service page', () => {
  it('says the operator sets the terms and links back to registration', () => {
    renderWithProviders(<TermsPage />, { route: '/terms', signedInAs: null });
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of service' })).toBeTruthy();
    expect(screen.getByRole('article').textContent).toMatch(
      /run by its operator.*sets the terms you accept/s,
    );
    expect(screen.getByRole('link', { name: 'Back to registration' }).getAttribute('href')).toBe(
      '/register',
    );
    expect(document.title).toMatch(/^Terms of service/);
  });
});
