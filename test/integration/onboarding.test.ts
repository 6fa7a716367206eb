/**
 * Onboarding (docs/adr/0016-onboarding.md "Onboarding": step 1 picks one of eight use cases, step 3
 * redirects to a per-use-case address): `PUT
 * /settings/onboarding` keeps the choice on the user and answers the address. The answers are a new
 * user's of this file's own, from their first state: the seeded logins serve the files after this
 * one unchanged.
 */
import { describe, expect, it } from 'vitest';
import { ONBOARDING_USE_CASES, USE_CASES } from '#shared/onboarding.ts';
import { TestClient } from '../support/client.ts';
import { ownTeam, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

describe('onboarding', () => {
  it('has the eight use cases of the spec, each with its own address', () => {
    expect(USE_CASES.map((u) => u.key)).toEqual([...ONBOARDING_USE_CASES]);
    expect(ONBOARDING_USE_CASES).toEqual([
      'ecommerce',
      'coaching',
      'training',
      'phisicalStore',
      'leadWarming',
      'salesAppointment',
      'webinars',
      'welcome',
    ]);
    expect(new Set(USE_CASES.map((u) => u.tag)).size).toBe(8);
  });

  it('stores the chosen use case and answers its address', async () => {
    const user = await ownTeam(stack().url, uniqueEmail('onboarding'));
    expect((await user.request('GET', '/user/current')).json.onboarding_use_case).toBeNull();
    const res = await user.request('PUT', '/settings/onboarding', { use_case: 'phisicalStore' });
    expect(res.status).toBe(200);
    expect(res.json.redirect).toBe('/dashboard?view=templates&tag=store');
    expect((await user.request('GET', '/user/current')).json.onboarding_use_case).toBe(
      'phisicalStore',
    );
  });

  it('refuses an unknown use case with a field error and keeps the old choice', async () => {
    const user = await ownTeam(stack().url, uniqueEmail('onboarding-refused'));
    expect(
      (await user.request('PUT', '/settings/onboarding', { use_case: 'webinars' })).status,
    ).toBe(200);
    const res = await user.request('PUT', '/settings/onboarding', { use_case: 'crypto' });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ use_case: ['Choose one of the use cases.'] });
    expect((await user.request('GET', '/user/current')).json.onboarding_use_case).toBe('webinars');
  });

  it('needs a signed-in user', async () => {
    const anonymous = new TestClient(stack().url);
    const res = await anonymous.request('PUT', '/settings/onboarding', { use_case: 'welcome' });
    expect(res.status).toBe(401);
  });
});
