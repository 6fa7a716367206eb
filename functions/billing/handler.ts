/**
 * The `billing` feature (issue: billing). So far: the plan list, which registration reads. The
 * Stripe calls (subscriptions, payment methods, coupons, tax, invoices) answer 501 until the
 * billing issue lands; without Stripe keys the product runs in offline mode on the free plan.
 */
import { billingOnline } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { featureHandler, json, route } from '#lib/http.ts';

/** A plan as the SPA reads it (spec 001 §3 Plan; capabilities of issue: billing §1). */
export interface PlanView {
  id: string;
  name: string;
  /** cents per interval */
  price: number;
  interval: 'monthly' | 'yearly';
  type: 'user' | 'team';
  active: boolean;
  attributes: { teams: number; teamMembers: number };
  features: { can_export_pdf: boolean; can_upload_custom_fonts: boolean };
  /** False for paid plans while billing is offline (no Stripe keys). */
  available: boolean;
}

/** The active plans, cheapest first; `plan-freeze` is internal and never listed. */
export async function listPlans(): Promise<PlanView[]> {
  const plans = (await db().Plan.query.all({}).go({ pages: 'all' })).data;
  const online = billingOnline();
  return plans
    .filter((p) => p.active !== false && p.planId !== 'plan-freeze')
    .map((p) => ({
      id: p.planId,
      name: p.name,
      price: p.price,
      interval: p.interval,
      type: p.type,
      active: p.active !== false,
      attributes: { teams: p.teams, teamMembers: p.teamMembers },
      features: {
        can_export_pdf: p.can_export_pdf ?? false,
        can_upload_custom_fonts: p.can_upload_custom_fonts ?? false,
      },
      available: p.price === 0 || online,
    }));
}

export const handler = featureHandler('billing', {
  'GET /spark/plans': route({
    handle: async () => json(200, await listPlans(), { 'cache-control': 'public, max-age=60' }),
  }),
});
