/**
 * Registration step 1 with a paid plan (docs/adr/0026-billing-in-the-spa.md "Billing in the SPA":
 * "step 1 plan and card", docs/billing.md "Flows": "Card input is shown only for a non-free plan";
 * docs/billing.md): once `POST /register` has created the account, the team is subscribed with the
 * card, address, VAT id and promotion code of the form. The partner-campaign registration route
 * (`POST /register/partner`) applies its fixed coupon from `STRIPE_PARTNER_COUPON`; no field of the
 * form can ask for it.
 *
 * A refused subscription (422: card, coupon, VAT id; or Stripe failing) removes the account
 * again, so the visitor can correct the form and send it once more; a payment that needs
 * 3-D Secure keeps the account (400 with `paymentId`, the SPA confirms, then /confirmation).
 */
import { BILLING_MESSAGES, RegistrationBillingSchema } from '#shared/contract/billing.ts';
import { db } from '#lib/db/index.ts';
import { AppError, validationFailed } from '#lib/errors.ts';
import { zodFieldErrors } from '#lib/http.ts';
import { reopenInvitation } from '#functions/teams/members.ts';
import { loadBillingTeam } from './account.ts';
import { partnerDiscount } from './discounts.ts';
import { withBillingErrors } from './errors.ts';
import { offersCardlessTrial, planById } from './plans.ts';
import { syncSeats } from './seats.ts';
import { startTrial, subscribe } from './subscriptions.ts';

/** True when registering with this plan subscribes (a plan with a price). */
export const isPaidPlan = (planId: string): boolean => (planById(planId)?.price ?? 0) > 0;

/**
 * Deletes what `register` created: user, e-mail claim, memberships and the owned team. An
 * invitation the registration accepted goes back to pending (the same link works for the next
 * try), and the team it joined gets its seats back (docs/billing.md).
 * @param invitation the invitation code of the form, if any.
 */
async function undoRegistration(
  userId: string,
  teamId: string,
  invitation: string | undefined,
): Promise<void> {
  const user = (await db().User.get({ userId }).go()).data;
  const memberships = (await db().Membership.query.byUser({ userId }).go({ pages: 'all' })).data;
  await Promise.all(
    memberships.map((m) => db().Membership.delete({ teamId: m.teamId, userId }).go()),
  );
  await db().Team.delete({ teamId }).go();
  if (user) await db().EmailClaim.delete({ email: user.email }).go();
  await db().User.delete({ userId }).go();
  const joined = memberships.filter((m) => m.teamId !== teamId).map((m) => m.teamId);
  if (invitation && user) await reopenInvitation(invitation, user.email);
  for (const team of joined) await syncSeats(team, 'leave');
}

/** The invitation code of a `/register` body, if it has one. */
const invitationOf = (raw: unknown): string | undefined => {
  const code = (raw as { invitation?: unknown } | null)?.invitation;
  return typeof code === 'string' && code !== '' ? code : undefined;
};

/** The card (`stripe_payment_method`) of a `/register` body, if it has one. */
const cardOf = (raw: unknown): string | undefined => {
  const card = (raw as { stripe_payment_method?: unknown } | null)?.stripe_payment_method;
  return typeof card === 'string' && card.trim() !== '' ? card : undefined;
};

/**
 * Subscribes a just-registered team to its paid plan, or starts the plan's trial when it offers
 * one without a card and the form has none (docs/billing.md "Trials"). A card brought to a plan
 * with a trial subscribes with the trial as well: nothing is charged before the trial's end.
 * @param coupon the form's promotion code (ignored on the partner route).
 * @param raw the `/register` body as sent (its billing fields: shared/contract/billing.ts
 *   RegistrationBillingSchema).
 * @param partner true only for `POST /register/partner` (the route, never a field): the
 *   campaign's configured coupon, when valid, replaces any code.
 * @throws AppError 400 `paymentId` (account kept); 422 on `stripe_payment_method`, `coupon`,
 *   `vat_id`, `plan` or the generic 502 (account removed).
 */
export async function subscribeAtRegistration(
  account: { userId: string; teamId: string },
  plan: string,
  coupon: string | null | undefined,
  raw: unknown,
  requestId: string,
  partner = false,
): Promise<void> {
  try {
    // A plan with a card-less trial starts it when the form brings no card (docs/billing.md
    // "Trials"); the address and VAT id come with the card later.
    if (offersCardlessTrial(plan) && !cardOf(raw)) {
      const team = await loadBillingTeam(account.teamId);
      await withBillingErrors(() => startTrial(team, plan, requestId));
      return;
    }
    const parsed = RegistrationBillingSchema.safeParse(raw ?? {});
    if (!parsed.success) throw validationFailed(zodFieldErrors(parsed.error));
    const billing = parsed.data;
    if (!billing.stripe_payment_method)
      throw validationFailed({ stripe_payment_method: [BILLING_MESSAGES.cardRequired] });
    const campaign = partner ? await withBillingErrors(() => partnerDiscount()) : undefined;
    await withBillingErrors(async () =>
      subscribe(
        await loadBillingTeam(account.teamId),
        { ...billing, plan, coupon: partner ? null : (coupon ?? null) },
        requestId,
        campaign,
        // A card brought to a plan with a trial starts the trial too; the card pays at its end.
        planById(plan)?.trialDays,
      ),
    );
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'payment_action_required'))
      await undoRegistration(account.userId, account.teamId, invitationOf(raw));
    throw error;
  }
}
