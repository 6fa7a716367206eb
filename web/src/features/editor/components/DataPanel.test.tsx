/**
 * The data panel's warning (./DataPanel.tsx; docs/data-sources.md "Security"): a design that
 * looks data up from its URL's values, without requiring signed URLs, lets anyone with the URL
 * look up other records. No user is signed in here, so the panel reads no team sources.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoDocument, openEditor, renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { DataPanel, UNSIGNED_BINDINGS_WARNING } from './DataPanel.tsx';

const bound = (requireSigned: boolean) =>
  openEditor({
    ...demoDocument(),
    require_signed_urls: requireSigned,
    data_bindings: [
      {
        source: 'store',
        source_id: 'store-1',
        key_param: 'email',
        fields: [{ field: 'name', param: 'first_name' }],
      },
    ],
  });

describe('the data panel', () => {
  it('warns while a bound design does not require signed URLs', () => {
    renderInEditor(<DataPanel />, { store: bound(false) });
    const warning = screen.getByText(UNSIGNED_BINDINGS_WARNING).closest('[role="status"]');
    expect(warning?.textContent).toContain('Lookups from an unsigned URL');
  });

  it('says nothing of it once signed URLs are required, nor without bindings', () => {
    renderInEditor(<DataPanel />, { store: bound(true) });
    expect(screen.queryByText(UNSIGNED_BINDINGS_WARNING)).toBeNull();
    renderInEditor(<DataPanel />, { store: openEditor() });
    expect(screen.queryByText(UNSIGNED_BINDINGS_WARNING)).toBeNull();
  });
});
