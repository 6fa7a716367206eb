/**
 * Billing answers as the SPA reads them (shapes from shared/billing.ts), for tests that play
 * them: a team paying for Pro monthly, to be changed with a spread.
 */
import type { SubscriptionView } from '#shared/billing.ts';

/**
 * `GET /settings/subscription` for a team on Pro monthly with a Visa card, renewing on
 * January 15th, 2030.
 * @param teamId the team's id (`team_id`).
 */
export function payingSubscription(teamId: string): SubscriptionView {
  return {
    team_id: teamId,
    billing_online: true,
    plan: 'pro-monthly',
    subscription_id: 'sub_demo',
    status: 'active',
    quantity: 1,
    active: true,
    on_trial: false,
    trial_ends_at: null,
    on_grace_period: false,
    ends_at: null,
    current_period_end: '2030-01-15T12:00:00.000Z',
    needs_subscription: false,
    frozen: false,
    frozenPlan: null,
    cancel_type: 'freeze',
    card: { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 },
    billing_address: null,
    vat_id: null,
    extra_billing_information: null,
    discount: null,
    capabilities: {
      can_export_pdf: true,
      can_upload_custom_fonts: true,
      teams: 10,
      teamMembers: 25,
      frozen: false,
    },
  };
}
