/**
 * API tokens in the security settings (./ApiTokensSection.tsx; docs/adr/0010-api-tokens.md "API
 * tokens"): the list's loading, empty and failed states, the create form (default abilities ticked,
 * the token's rules, the token shown once with focus on it), editing, and deleting after confirming
 * with focus on the outcome.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ABILITIES } from '#shared/contract/auth.ts';
import { answer } from '../../test/api.ts';
import {
  descriptionOf,
  expectBusy,
  expectFieldError,
  expectFocusOn,
} from '../../test/expectations.ts';
import { aToken, aUser, invalid } from '../../test/fixtures.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';

const ABILITY_OPTIONS = ABILITIES.map(({ value, text, default: on }) => ({
  value,
  text,
  default: on,
}));
const READ = 'Read designs, images and settings';
const WRITE = 'Create and change designs, images and settings';

beforeEach(() => {
  answer('GET /settings/api/token/abilities', 200, ABILITY_OPTIONS);
});

function renderTokens() {
  return renderWithProviders(<ApiTokensSection />, {
    route: '/settings#/security',
    signedInAs: aUser(),
  });
}

/** The list of tokens, once loaded. */
const tokenList = () => screen.findByRole('list', { name: 'Your tokens' });

describe('API tokens', () => {
  it('says the tokens are loading while the list is on its way', async () => {
    const list = answer('GET /settings/api/tokens', 200, [], { held: true });
    renderTokens();
    expect((await screen.findByRole('status')).textContent).toContain('Loading tokens…');
    list.release();
    await screen.findByText('You have no API tokens yet.');
  });

  it('says so when there is no token yet', async () => {
    answer('GET /settings/api/tokens', 200, []);
    renderTokens();
    await screen.findByText('You have no API tokens yet.');
    expect(screen.queryByRole('list', { name: 'Your tokens' })).toBeNull();
  });

  it('lists each token with its abilities, use and expiry, and its own Edit and Delete', async () => {
    answer('GET /settings/api/tokens', 200, [
      aToken(),
      aToken({
        id: 'token-2',
        name: 'CRM',
        metadata: { abilities: ['read', 'write'] },
        last_used_at: '2026-02-01T08:00:00.000Z',
        expires_at: '2026-12-31T00:00:00.000Z',
      }),
    ]);
    renderTokens();
    const list = await tokenList();
    const [shop, crm] = within(list).getAllByRole('listitem');
    expect(shop?.textContent).toContain(`${READ} · Never used · Does not expire`);
    expect(crm?.textContent).toContain(`${READ}, ${WRITE}`);
    expect(crm?.textContent).toMatch(/Last used .*2026/);
    expect(crm?.textContent).toMatch(/Expires .*2026/);
    expect(within(list).getByRole('button', { name: 'Edit Shop sync' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Delete CRM' })).toBeTruthy();
  });

  it('says why the list could not be loaded, and loads it again on Retry', async () => {
    answer('GET /settings/api/tokens', 500, { message: 'Server Error' });
    const { user } = renderTokens();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Server Error');
    answer('GET /settings/api/tokens', 200, [aToken()]);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await tokenList();
  });

  it('offers the abilities with their defaults ticked, and never-expiring by default', async () => {
    answer('GET /settings/api/tokens', 200, []);
    renderTokens();
    const read = (await screen.findByRole('checkbox', { name: READ })) as HTMLInputElement;
    const write = screen.getByRole('checkbox', { name: WRITE }) as HTMLInputElement;
    expect(read.checked).toBe(true);
    expect(write.checked).toBe(false);
    const expires = screen.getByRole('combobox', { name: 'Expires' }) as HTMLSelectElement;
    expect(expires.selectedOptions[0]?.textContent).toBe('Never (until deleted)');
    expect(descriptionOf(screen.getByRole('textbox', { name: 'Token name' }))).toBe(
      'Say what uses it, e.g. “Shop sync”.',
    );
  });

  it('asks for a name and at least one ability before creating', async () => {
    answer('GET /settings/api/tokens', 200, []);
    const create = answer('POST /settings/api/token', 201, {
      token: 'pst_x',
      id: 'token-9',
      expires_at: null,
    });
    const { user } = renderTokens();
    await user.click(await screen.findByRole('checkbox', { name: READ }));
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const name = screen.getByRole('textbox', { name: 'Token name' });
    await waitFor(() => expectFieldError(name, 'Enter a name for the token.'));
    expectFieldError(
      screen.getByRole('group', { name: 'Abilities' }),
      'Choose at least one ability.',
    );
    expect(document.activeElement).toBe(name);
    expect(create.requests).toHaveLength(0);
  });

  it('creates a token and shows it once, focused, until “I have stored it”', async () => {
    answer('GET /settings/api/tokens', 200, []);
    const create = answer('POST /settings/api/token', 201, {
      token: 'pst_0123456789abcdef0123456789abcdef01234567',
      id: 'token-9',
      expires_at: null,
    });
    const { user } = renderTokens();
    await user.type(await screen.findByRole('textbox', { name: 'Token name' }), 'Shop sync');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Expires' }), 'In 30 days');
    answer('GET /settings/api/tokens', 200, [aToken()]);
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    const shown = (await screen.findByRole('textbox', {
      name: 'New API token',
    })) as HTMLInputElement;
    expect(shown.value).toBe('pst_0123456789abcdef0123456789abcdef01234567');
    expect(screen.getByText('Token “Shop sync” created')).toBeTruthy();
    const onlyOnce = screen.getByText(/this is the only time it is shown/);
    await waitFor(() => expectFocusOn(onlyOnce));
    expect(create.requests[0]?.body).toEqual({
      name: 'Shop sync',
      abilities: ['read'],
      expires_in_days: 30,
    });
    expect(within(await tokenList()).getByRole('listitem').textContent).toContain('Shop sync');
    // The form gives way to the token until it is stored.
    expect(screen.queryByRole('button', { name: 'Create token' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByRole('textbox', { name: 'New API token' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Create token' })).toBeTruthy();
  });

  it('says it is creating while the answer is on its way', async () => {
    answer('GET /settings/api/tokens', 200, []);
    const create = answer(
      'POST /settings/api/token',
      201,
      { token: 'pst_x', id: 'token-9', expires_at: null },
      { held: true },
    );
    const { user } = renderTokens();
    await user.type(await screen.findByRole('textbox', { name: 'Token name' }), 'Shop sync');
    const button = screen.getByRole('button', { name: 'Create token' });
    await user.click(button);
    await waitFor(() => expectBusy(button, 'Creating…'));
    create.release();
    await screen.findByRole('textbox', { name: 'New API token' });
  });

  it('puts a refused name on its field', async () => {
    answer('GET /settings/api/tokens', 200, []);
    answer(
      'POST /settings/api/token',
      422,
      invalid({ name: ['The name has already been taken.'] }),
    );
    const { user } = renderTokens();
    const name = await screen.findByRole('textbox', { name: 'Token name' });
    await user.type(name, 'Shop sync{Enter}');
    await waitFor(() => expectFieldError(name, 'The name has already been taken.'));
  });

  it('renames a token with Edit, and puts the list back with Cancel', async () => {
    answer('GET /settings/api/tokens', 200, [aToken()]);
    const update = answer('PUT /settings/api/token/{id}', 200, { success: true });
    const { user } = renderTokens();
    const list = await tokenList();
    await user.click(within(list).getByRole('button', { name: 'Edit Shop sync' }));
    const name = within(list).getByRole('textbox', { name: 'Token name' }) as HTMLInputElement;
    expect(name.value).toBe('Shop sync');
    await user.click(within(list).getByRole('button', { name: 'Cancel' }));
    expect(within(list).queryByRole('textbox')).toBeNull();

    await user.click(within(list).getByRole('button', { name: 'Edit Shop sync' }));
    const again = within(list).getByRole('textbox', { name: 'Token name' });
    await user.clear(again);
    await user.type(again, 'Shop sync v2');
    await user.click(within(list).getByRole('checkbox', { name: WRITE }));
    await user.click(within(list).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(update.requests).toHaveLength(1));
    expect(update.requests[0]?.params).toEqual({ id: 'token-1' });
    expect(update.requests[0]?.body).toEqual({
      name: 'Shop sync v2',
      abilities: ['read', 'write'],
    });
  });

  it('deletes a token after confirming, focus on the outcome', async () => {
    answer('GET /settings/api/tokens', 200, [aToken()]);
    const remove = answer('DELETE /settings/api/token/{id}', 200, { success: true });
    const { user } = renderTokens();
    await user.click(within(await tokenList()).getByRole('button', { name: 'Delete Shop sync' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this API token?' });
    expect(dialog.textContent).toContain(
      'Programs using “Shop sync” will no longer be able to reach the API.',
    );
    answer('GET /settings/api/tokens', 200, []);
    await user.click(within(dialog).getByRole('button', { name: 'Delete token' }));
    const outcome = await screen.findByText('The token “Shop sync” was deleted.');
    await waitFor(() => expectFocusOn(outcome));
    await screen.findByText('You have no API tokens yet.');
    expect(remove.requests[0]?.params).toEqual({ id: 'token-1' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the token and says why when the delete is refused', async () => {
    answer('GET /settings/api/tokens', 200, [aToken()]);
    answer('DELETE /settings/api/token/{id}', 404, { message: 'This token no longer exists.' });
    const { user } = renderTokens();
    await user.click(within(await tokenList()).getByRole('button', { name: 'Delete Shop sync' }));
    await user.click(screen.getByRole('button', { name: 'Delete token' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This token no longer exists.');
    expect(within(await tokenList()).getByRole('listitem').textContent).toContain('Shop sync');
  });

  it('locks the tokens while an admin impersonates the user, saying why', async () => {
    answer('GET /settings/api/tokens', 200, [aToken()]);
    renderWithProviders(<ApiTokensSection />, {
      signedInAs: aUser({
        impersonator: { id: 'admin-1', name: 'Ada Admin', email: 'ada@example.com' },
      }),
    });
    expect(
      screen.getByText(
        /You are impersonating this user: their password, two-factor authentication and API tokens/,
      ),
    ).toBeTruthy();
    const create = await screen.findByRole('button', { name: 'Create token' });
    expect(create.closest('fieldset')?.disabled).toBe(true);
  });
});
