/**
 * Team settings → Data (./DataTab.tsx; docs/data-sources.md "In the settings"): the team's data
 * stores with their size, a new store's form with its field errors and its upload, deleting a
 * store after confirming, the web APIs listed, and nothing for members who do not manage.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../../test/api.ts';
import { expectFieldError } from '../../test/expectations.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { DataTab, uploadSummary } from './DataTab.tsx';

const STORE = {
  id: 'store-1',
  name: 'Products',
  key_column: 'sku',
  columns: ['sku', 'price'],
  rows: 1200,
  max_rows: 10000,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};

const open = (canManage = true) =>
  renderWithProviders(<DataTab teamId="team-1" canManage={canManage} />);

describe('the Data tab', () => {
  it('lists the data stores with their key and size, and the web APIs', async () => {
    answer('GET /settings/companies/{id}/data-stores', 200, { stores: [STORE] });
    answer('GET /settings/companies/{id}/web-apis', 200, {
      apis: [
        {
          id: 'api-1',
          name: 'Stock',
          url: 'https://shop.example/stock/{sku}',
          header_names: [],
          ttl_seconds: 300,
          created_at: '2026-11-20T10:00:00.000Z',
          updated_at: '2026-11-20T10:00:00.000Z',
        },
      ],
    });
    open();
    const stores = await screen.findByRole('list', { name: 'Data stores' });
    expect(stores.textContent).toContain('Products');
    expect(stores.textContent).toContain('Key column sku');
    expect(stores.textContent).toContain('1,200 of 10,000 rows');
    expect(
      within(await screen.findByRole('list', { name: 'Web APIs' })).getByText('Stock'),
    ).toBeTruthy();
  });

  it('says what a new store needs before sending anything', async () => {
    answer('GET /settings/companies/{id}/data-stores', 200, { stores: [] });
    answer('GET /settings/companies/{id}/web-apis', 200, { apis: [] });
    const { user } = open();
    expect(
      await screen.findByText('No data stores yet: upload the first table below.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Upload data store' }));
    expectFieldError(screen.getByLabelText('Name'), 'The name is required.');
    expectFieldError(
      screen.getByLabelText('Key column'),
      'Enter the name of the key column (for example sku).',
    );
    expect(screen.getByText('! Choose a CSV or XLSX file.')).toBeTruthy();
  });

  it('uploads a new store and says what it read', async () => {
    answer('GET /settings/companies/{id}/data-stores', 200, { stores: [] });
    answer('GET /settings/companies/{id}/web-apis', 200, { apis: [] });
    const made = answer('POST /settings/companies/{id}/data-stores', 201, {
      store: STORE,
      report: { rows: 3, added: 3, updated: 0, cut_values: 0, skipped_empty_rows: 1 },
    });
    const { user } = open();
    await user.type(await screen.findByLabelText('Name'), 'Products');
    await user.type(screen.getByLabelText('Key column'), 'sku');
    await user.upload(
      screen.getByLabelText('File (CSV or XLSX)'),
      new File(['sku,price\nA1,3\n'], 'products.csv', { type: 'text/csv' }),
    );
    answer('GET /settings/companies/{id}/data-stores', 200, { stores: [STORE] });
    await user.click(screen.getByRole('button', { name: 'Upload data store' }));
    expect(
      await screen.findByText(
        '“Products” made: 3 rows read: 3 added, 0 updated; 1 empty rows skipped.',
      ),
    ).toBeTruthy();
    expect(made.requests).toHaveLength(1);
    expect(await screen.findByRole('list', { name: 'Data stores' })).toBeTruthy();
  });

  it('deletes a store only after confirming', async () => {
    answer('GET /settings/companies/{id}/data-stores', 200, { stores: [STORE] });
    answer('GET /settings/companies/{id}/web-apis', 200, { apis: [] });
    const removed = answer('DELETE /settings/companies/{id}/data-stores/{storeId}', 200, {
      success: true,
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Delete Products' }));
    expect(removed.requests).toHaveLength(0);
    answer('GET /settings/companies/{id}/data-stores', 200, { stores: [] });
    await user.click(screen.getByRole('button', { name: 'Delete data store' }));
    await waitFor(() => expect(removed.requests).toHaveLength(1));
    expect(removed.requests[0]?.params).toEqual({ id: 'team-1', storeId: 'store-1' });
    expect(await screen.findByText('The data store “Products” was deleted.')).toBeTruthy();
  });

  it('asks nothing for a member who does not manage the company', () => {
    open(false);
    expect(screen.getByText(/Only the company.s owner and admins manage/)).toBeTruthy();
  });

  it('sums up an upload', () => {
    expect(
      uploadSummary({ rows: 1, added: 0, updated: 1, cut_values: 2, skipped_empty_rows: 0 }),
    ).toBe('1 row read: 0 added, 1 updated; 2 values cut to 255 characters.');
  });
});
