/**
 * The `billing` feature (docs/billing.md; docs/billing.md "Flows": "Registration and lookups",
 * "Subscription and payment"): plans, the Stripe key and SetupIntent, coupons, the tax preview, the
 * subscription view, subscribe / switch / resume / freeze / cancel, the payment method, VAT id,
 * extra billing information, invoices and the payment-confirmation lookup. The contract (bodies and
 * answers) is shared/contract/billing.ts. Without Stripe keys billing is offline: the free plan
 * works, paid plans answer 'Invalid Stripe Key/Secret' (docs/accounts.md "Error answers in the
 * SPA"), and nothing else fails.
 */
import type { z } from 'zod';
import {
  ApplyCouponRequestSchema,
  BILLING_CONTRACT,
  BILLING_MESSAGES,
  CancelMetaDataRequestSchema,
  CancelRequestSchema,
  ExtraBillingInformationRequestSchema,
  PaymentMethodRequestSchema,
  SubscribeRequestSchema,
  SwapRequestSchema,
  TaxRateRequestSchema,
  VatIdRequestSchema,
  type SubscriptionAnswer,
} from '#shared/contract/billing.ts';
import type { AuthUser } from '#lib/auth.ts';
import { billingOnline } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { notFound, validationFailed } from '#lib/errors.ts';
import { featureHandler, json, route, type ApiResult, type RouteContext } from '#lib/http.ts';
import { BillingOfflineError, idempotencyKey, stripe, stripePublishableKey } from '#lib/stripe.ts';
import { billingTeamOf, ownedCustomerIds, type BillingTeam } from './account.ts';
import { applyCoupon, lookupCoupon, teamDiscount } from './coupons.ts';
import { ensureCustomer, replaceTaxId, saveBillingDetails } from './customers.ts';
import { withBillingErrors } from './errors.ts';
import { invoicePdfUrl, listInvoices } from './invoices.ts';
import { createSetupIntent, useCard } from './payment-methods.ts';
import { paymentLookup } from './payments.ts';
import { ensurePlans, listPlans } from './plans.ts';
import { cancel, saveCancelMetaData, subscribe, swap } from './subscriptions.ts';
import { previewTaxRate } from './tax.ts';
import { subscriptionView } from './view.ts';
import { clientAddress } from '#lib/client-address.ts';
import { limitPublicCall } from '#lib/limits/attempts.ts';

export { listPlans };

/** `{ success: true, subscription }` with the team's billing now. */
async function answer(teamId: string): Promise<ApiResult> {
  const body: SubscriptionAnswer = { success: true, subscription: await subscriptionView(teamId) };
  return json(200, body);
}

/** The team of a user path (`params.id` absent) or a team path. */
const teamOf = (ctx: RouteContext<unknown, unknown>): Promise<BillingTeam> =>
  billingTeamOf(ctx.auth.user, ctx.params.id);

/** A route in both forms: the user path and the team path run the same work. */
function billingRoute<B>(
  body: z.ZodType<B> | undefined,
  work: (billing: BillingTeam, body: B, ctx: RouteContext<B, unknown>) => Promise<ApiResult>,
) {
  return route<B, unknown>({
    ...(body ? { body } : {}),
    handle: async (ctx) => work(await teamOf(ctx as RouteContext<unknown, unknown>), ctx.body, ctx),
  });
}

const view = billingRoute(undefined, async ({ team }) =>
  json(200, await subscriptionView(team.teamId)),
);

const create = billingRoute(SubscribeRequestSchema, async (billing, body, ctx) => {
  if (!billingOnline()) throw validationFailed({ plan: [BILLING_MESSAGES.invalidStripeKey] });
  await ensurePlans();
  await withBillingErrors(() => subscribe(billing, body, ctx.requestId));
  return answer(billing.team.teamId);
});

const change = billingRoute(SwapRequestSchema, async (billing, body, ctx) => {
  await withBillingErrors(() => swap(billing, body.plan, ctx.requestId));
  return answer(billing.team.teamId);
});

const remove = billingRoute(CancelRequestSchema, async (billing, body, ctx) => {
  await withBillingErrors(() => cancel(billing, body, ctx.requestId));
  return answer(billing.team.teamId);
});

const paymentMethod = billingRoute(PaymentMethodRequestSchema, async (billing, body, ctx) => {
  await withBillingErrors(async () => {
    const { customerId } = await ensureCustomer(billing, body, ctx.requestId);
    await useCard(billing.team.teamId, customerId, body.stripe_payment_method, ctx.requestId);
  }, 'stripe_payment_method');
  return answer(billing.team.teamId);
});

const vatId = billingRoute(VatIdRequestSchema, async (billing, body, ctx) => {
  const team = await saveBillingDetails(billing.team, { vat_id: body.vat_id ?? '' });
  if (billingOnline() && team.stripeCustomerId)
    await withBillingErrors(() => replaceTaxId(team, ctx.requestId), 'vat_id');
  return answer(team.teamId);
});

const coupon = billingRoute(ApplyCouponRequestSchema, async (billing, body, ctx) => {
  const result = await withBillingErrors(
    () => applyCoupon(billing.team, body.coupon, ctx.requestId),
    'coupon',
  );
  if (result === 'invalid') throw validationFailed({ coupon: [BILLING_MESSAGES.couponInvalid] });
  if (result === 'no-subscription')
    throw validationFailed({ coupon: [BILLING_MESSAGES.noSubscription] });
  return answer(billing.team.teamId);
});

const invoices = billingRoute(undefined, async ({ team }) =>
  json(200, await withBillingErrors(() => listInvoices(team))),
);

const needUser = (user: AuthUser | undefined): AuthUser => {
  if (!user) throw notFound();
  return user;
};

/** No discount on the team (docs/billing.md "Flows": only a 200 means one exists): 204, no body. */
const noDiscount = () => ({ statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' });

export const handler = featureHandler('billing', {
  'GET /spark/plans': route({
    handle: async () => {
      await ensurePlans();
      return json(200, listPlans(), { 'cache-control': 'public, max-age=60' });
    },
  }),

  'GET /stripe/key': route({
    handle: async () => {
      const publishableKey = stripePublishableKey();
      if (!publishableKey)
        throw validationFailed({ stripe_payment_method: [BILLING_MESSAGES.invalidStripeKey] });
      return json(200, { publishableKey });
    },
  }),

  'GET /stripe/token': route({
    query: BILLING_CONTRACT['GET /stripe/token'].query,
    handle: async ({ auth, query, requestId }) => {
      const billing = await billingTeamOf(auth.user, query.team_id);
      return json(
        200,
        await withBillingErrors(
          () => createSetupIntent(billing, requestId),
          'stripe_payment_method',
        ),
      );
    },
  }),

  /** Public, so limited per client address (`PUBLIC_CALL_LIMITS`, docs/security.md). */
  'GET /coupon/{code}': route({
    handle: async ({ params, event }) => {
      await limitPublicCall('coupon', clientAddress(event));
      return json(200, await withBillingErrors(() => lookupCoupon(params.code!), 'coupon'));
    },
  }),

  /** Public, so limited per client address (`PUBLIC_CALL_LIMITS`, docs/security.md). */
  'POST /tax-rate': route({
    body: TaxRateRequestSchema,
    handle: async ({ body, event }) => {
      await limitPublicCall('tax-rate', clientAddress(event));
      return json(200, await withBillingErrors(() => previewTaxRate(body), 'country'));
    },
  }),

  'GET /coupon/user/{id}': route({
    handle: async ({ auth, params }) => {
      const user = needUser(auth.user);
      if (params.id !== user.userId || !user.currentTeamId) throw notFound();
      const discount = await teamDiscount(user.currentTeamId);
      // docs/billing.md "Flows": "200 means a discount exists"; none is 204, so a 404 only ever
      // means "not yours".
      return discount ? json(200, discount) : noDiscount();
    },
  }),

  'GET /settings/companies/coupon/{id}': route({
    handle: async ({ params }) => {
      const discount = await teamDiscount(params.id!);
      return discount ? json(200, discount) : noDiscount();
    },
  }),

  'GET /settings/subscription': view,
  'GET /settings/companies/{id}/subscription': view,
  'POST /settings/subscription': create,
  'POST /settings/companies/{id}/subscription': create,
  'PUT /settings/subscription': change,
  'PUT /settings/companies/{id}/subscription': change,
  'DELETE /settings/subscription': remove,
  'DELETE /settings/companies/{id}/subscription': remove,

  'PUT /settings/companies/{id}/metaData': billingRoute(
    CancelMetaDataRequestSchema,
    async (billing, body, ctx) => {
      await withBillingErrors(() => saveCancelMetaData(billing, body, ctx.requestId));
      return json(200, { success: true });
    },
  ),

  'PUT /settings/payment-method': paymentMethod,
  'PUT /settings/companies/{id}/payment-method': paymentMethod,
  'PUT /settings/companies/{id}/update-payment-method': paymentMethod,
  'PUT /settings/payment-method/vat-id': vatId,
  'PUT /settings/companies/{id}/payment-method/vat-id': vatId,
  'POST /settings/payment-method/coupon': coupon,
  'POST /settings/companies/{id}/payment-method/coupon': coupon,
  'GET /settings/invoices': invoices,
  'GET /settings/companies/{id}/invoices': invoices,

  'GET /settings/invoice/{id}': route({
    handle: async ({ auth, params }) => {
      const user = needUser(auth.user);
      if (!billingOnline()) throw notFound();
      const url = await withBillingErrors(async () =>
        invoicePdfUrl(params.id!, await ownedCustomerIds(user.userId)),
      );
      return { statusCode: 302, headers: { location: url, 'cache-control': 'no-store' }, body: '' };
    },
  }),

  'PUT /settings/extra-billing-information': route({
    body: ExtraBillingInformationRequestSchema,
    handle: async ({ auth, body, requestId }) => {
      const { team } = await billingTeamOf(auth.user, body.team_id);
      const information = body.information ?? '';
      await db()
        .Team.patch({ teamId: team.teamId })
        .set({ extraBillingInformation: information })
        .go();
      if (billingOnline() && team.stripeCustomerId) {
        await withBillingErrors(() =>
          stripe().customers.update(
            team.stripeCustomerId!,
            { invoice_settings: { footer: information } },
            { idempotencyKey: idempotencyKey('footer', team.teamId, requestId) },
          ),
        );
      }
      return answer(team.teamId);
    },
  }),

  'GET /stripe/payment/{id}': route({
    handle: async ({ auth, params }) => {
      const user = needUser(auth.user);
      const found = await withBillingErrors(async () => {
        if (!billingOnline()) throw new BillingOfflineError();
        return paymentLookup(params.id!, await ownedCustomerIds(user.userId));
      }, 'payment');
      return json(200, found);
    },
  }),
});
