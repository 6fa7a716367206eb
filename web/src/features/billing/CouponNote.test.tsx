/**
 * What the coupon from the address bar gives (./CouponNote.tsx with ./hooks.ts
 * `useCouponLookup`; docs/accounts.md "Validation rules": "Coupons and invitations: one the server
 * does not know is marked invalid and not used"; docs/adr/0026-billing-in-the-spa.md "Billing in
 * the SPA"): checking, valid with its terms, invalid, or unknown when the check failed; on the
 * partner path the offer is named without its code.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AnswerOf } from '#shared/contract/index.ts';
import { answer, failNetwork } from '../../test/api.ts';
import { renderWithProviders } from '../../test/TestProviders.tsx';
import { CouponNote } from './CouponNote.tsx';
import { useCouponLookup } from './hooks.ts';

/** The note for the coupon `code` of the address bar, looked up as registration does. */
function CouponFromUrl({ code, partner }: { code: string | undefined; partner?: boolean }) {
  return <CouponNote coupon={useCouponLookup(code)} partner={partner} />;
}

function coupon(
  fields: Partial<AnswerOf<'GET /coupon/{code}'>> = {},
): AnswerOf<'GET /coupon/{code}'> {
  return {
    valid: true,
    code: 'SPRING20',
    name: 'Spring',
    percent_off: 20,
    amount_off: null,
    currency: null,
    duration: 'repeating',
    duration_in_months: 3,
    ...fields,
  };
}

/** The note's text, once it says something other than "Checking". */
async function settledNote(): Promise<string> {
  const note = await screen.findByText((_text, element) =>
    Boolean(
      element?.getAttribute('role') === 'status' &&
      element.textContent &&
      !element.textContent.includes('Checking'),
    ),
  );
  return note.textContent ?? '';
}

describe('CouponNote', () => {
  it('says nothing without a coupon', () => {
    const { container } = renderWithProviders(<CouponFromUrl code={undefined} />);
    expect(container.textContent).toBe('');
  });

  it('says it is checking the code while the lookup is on its way', () => {
    answer('GET /coupon/{code}', 200, coupon(), { held: true });
    renderWithProviders(<CouponFromUrl code="SPRING20" />);
    expect(screen.getByRole('status').textContent?.trim()).toBe('Checking coupon SPRING20…');
  });

  it('describes a valid coupon’s terms with its code', async () => {
    const lookup = answer('GET /coupon/{code}', 200, coupon());
    renderWithProviders(<CouponFromUrl code="SPRING20" />);
    expect(await settledNote()).toBe(
      'Coupon SPRING20: 20% off for 3 months. It applies to a paid plan.',
    );
    expect(lookup.requests[0]?.params).toEqual({ code: 'SPRING20' });
  });

  it('writes an amount off in the coupon’s currency, once', async () => {
    answer(
      'GET /coupon/{code}',
      200,
      coupon({ percent_off: null, amount_off: 1000, currency: 'eur', duration: 'once' }),
    );
    renderWithProviders(<CouponFromUrl code="TENOFF" />);
    expect(await settledNote()).toBe(
      'Coupon TENOFF: €10 off the first invoice. It applies to a paid plan.',
    );
  });

  it('says plainly that an unknown code will not be applied', async () => {
    answer('GET /coupon/{code}', 200, coupon({ valid: false, percent_off: null }));
    renderWithProviders(<CouponFromUrl code="NOPE" />);
    expect(await settledNote()).toBe('! Coupon NOPE is not valid, so it will not be applied.');
    expect(screen.getByText('!').getAttribute('aria-hidden')).toBe('true');
  });

  it('keeps a code that could not be checked, saying why', async () => {
    failNetwork('GET /coupon/{code}');
    renderWithProviders(<CouponFromUrl code="SPRING20" />);
    expect(await settledNote()).toBe(
      'Coupon SPRING20 could not be checked (We could not reach PicSnippets. Check your connection and try again.). It is kept with your registration.',
    );
  });

  it('names the partner offer without its code', async () => {
    answer('GET /coupon/{code}', 200, coupon({ code: 'PARTNER-SECRET' }));
    renderWithProviders(<CouponFromUrl code="PARTNER-SECRET" partner />);
    const text = await settledNote();
    expect(text).toBe('Partner offer: 20% off for 3 months. It applies to a paid plan.');
    expect(text).not.toContain('PARTNER-SECRET');
  });

  it('says the partner offer is not available, without its code', async () => {
    answer('GET /coupon/{code}', 200, coupon({ valid: false, code: 'PARTNER-SECRET' }));
    renderWithProviders(<CouponFromUrl code="PARTNER-SECRET" partner />);
    const text = await settledNote();
    expect(text).toContain(
      'The partner offer is not available right now, so no discount will be applied.',
    );
    expect(text).not.toContain('PARTNER-SECRET');
  });
});
