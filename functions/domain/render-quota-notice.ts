/**
 * The render quota notice (docs/security.md "Render limits"): what the team's owner is told when
 * the team's renders this month reach 80 % or 100 % of its plan's allowance, in-app
 * (functions/domain/notify.ts `NOTICES.renderQuota`) and by e-mail
 * (functions/domain/mail-templates.ts `renderQuotaMail`).
 *
 * One send path, two callers: locally and in tests the render function calls
 * {@link sendRenderQuotaNotice} itself (functions/render/quota.ts); in AWS, where the render role
 * may neither write notifications nor send mail, it invokes the render-notices function
 * (functions/render-notices/handler.ts) with a {@link RenderQuotaNotice} as the payload, and that
 * function calls it. Which threshold is told once a month is decided before, by the conditional
 * write on the team-month usage record (functions/render/usage.ts).
 */
import { z } from 'zod';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { renderQuotaMail } from './mail-templates.ts';
import { sendMail } from '#lib/mailer.ts';
import { NOTICES, notifyTeam } from './notify.ts';

/**
 * The notice's shape, and the render-notices function's whole payload (extra keys refused):
 * `{ teamId, threshold: 80 | 100, month: 'YYYY-MM', used, allowance }`, where `used` is the
 * month's total when the threshold was seen and `allowance` the plan's renders a month
 * (functions/render/usage.ts `QUOTA_THRESHOLDS`, `monthOf`).
 */
export const RenderQuotaNoticeSchema = z
  .object({
    teamId: z.string().min(1).max(128),
    threshold: z.union([z.literal(80), z.literal(100)]),
    month: z.string().regex(/^\d{4}-(?:0[1-9]|1[0-2])$/, 'month must be YYYY-MM'),
    used: z.number().int().min(0),
    allowance: z.number().int().min(1),
  })
  .strict();

export type RenderQuotaNotice = z.infer<typeof RenderQuotaNoticeSchema>;

/** `2026-11` → `November 2026`. */
const monthName = (month: string): string =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Tells the team's owner in-app and by e-mail. Never throws: each part logs its own failure,
 * and neither waits on the other (a team or owner gone: nothing is sent).
 * Reads the Team and User items and the address's suppression (GetItem), writes one
 * Notification item (PutItem), sends one mail: the render-notices role's grants
 * (infra/constructs/render.ts `RENDER_NOTICES_TABLE`).
 */
export async function sendRenderQuotaNotice(notice: RenderQuotaNotice): Promise<void> {
  const { teamId, threshold, month, allowance } = notice;
  const inApp = notifyTeam(teamId, 'owner', (team) =>
    NOTICES.renderQuota(team, threshold, allowance),
  );
  const mail = (async () => {
    const team = (await db().Team.get({ teamId }).go()).data;
    if (!team) return;
    const owner = (await db().User.get({ userId: team.ownerId }).go()).data;
    if (!owner?.email) return;
    await sendMail({
      to: owner.email,
      ...renderQuotaMail({
        name: owner.name,
        teamName: team.name,
        percent: threshold,
        quota: allowance,
        month: monthName(month),
        link: `${config().PUBLIC_URL}/settings/companies/${encodeURIComponent(teamId)}#/subscription`,
      }),
    });
  })().catch((error: unknown) => {
    logger.warn('render quota mail not sent', { teamId, threshold, error: error as Error });
  });
  await Promise.all([inApp, mail]);
}
