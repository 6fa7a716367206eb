/**
 * The message box (./Notice.tsx): an error is an alert, announced at once; info and success are
 * a polite status. The title and the text are read with it.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { Notice } from './Notice.tsx';

describe('Notice', () => {
  it('announces an error at once, with its title and text', () => {
    renderWithProviders(
      <Notice tone="error" title="Sign-in failed">
        These credentials do not match our records.
      </Notice>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Sign-in failed');
    expect(alert.textContent).toContain('These credentials do not match our records.');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it.each(['info', 'success'] as const)('announces %s politely, as a status', (tone) => {
    renderWithProviders(<Notice tone={tone}>The company name was saved.</Notice>);
    expect(screen.getByRole('status').textContent).toContain('The company name was saved.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('carries the tone in an icon hidden from screen readers, not only in colour', () => {
    renderWithProviders(<Notice tone="error">Not saved.</Notice>);
    const icon = screen.getByText('!');
    expect(icon.getAttribute('aria-hidden')).toBe('true');
  });
});
