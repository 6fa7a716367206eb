/**
 * The status badge (./StatusBadge.tsx) of the status page's services: the word says the state,
 * the icon beside it is hidden from screen readers.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { StatusBadge } from './StatusBadge.tsx';

describe('StatusBadge', () => {
  it('says OK for a service that answers', () => {
    const { container } = renderWithProviders(<StatusBadge ok />);
    expect(container.textContent).toBe('✓OK');
    expect(screen.getByText('✓').getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByText(/Down/)).toBeNull();
  });

  it('says Down for one that does not', () => {
    const { container } = renderWithProviders(<StatusBadge ok={false} />);
    expect(container.textContent).toBe('✕Down');
    expect(screen.getByText('✕').getAttribute('aria-hidden')).toBe('true');
  });
});
