/**
 * The editor's toolbar links (./EditorToolbar.tsx): the design's export screen and its analytics
 * page (docs/analytics.md "The page"), each in a new window so the editor stays open.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';

describe('the editor toolbar', () => {
  it('links the design’s export screen and analytics page, in new windows', () => {
    renderInEditor(<EditorToolbar />, { store: openEditor() });
    for (const [name, page] of [
      ['Export (opens in a new window)', 'export'],
      ['Analytics (opens in a new window)', 'analytics'],
    ] as const) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(`/pic-snippet/design-1/${page}`);
      expect(link.getAttribute('target')).toBe('_blank');
    }
  });
});
