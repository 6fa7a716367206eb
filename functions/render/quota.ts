/**
 * The monthly render quota's real collaborators (docs/security.md "Render limits"): the
 * team-month record in DynamoDB (functions/lib/db/entities-usage.ts `TeamRenderUsage`) behind
 * usage.ts's `UsageStore`, and the owner's notice (in-app and e-mail) behind its
 * `QuotaNotifier`. The counting itself is in usage.ts.
 */
import { config } from '#lib/config.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { renderQuotaMail } from '#lib/mail-templates.ts';
import { sendMail } from '#lib/mailer.ts';
import { NOTICES, notifyTeam } from '#lib/notify.ts';
import type { QuotaNotifier, QuotaThreshold, UsageStore } from './usage.ts';

/** Team-month totals in the table: a GetItem per read, an ADD per flush, a conditional SET per notice. */
export const dynamoUsageStore: UsageStore = {
  async read(teamId, month) {
    const found = await db()
      .TeamRenderUsage.get({ usageTeam: teamId, month })
      .go({ attributes: ['renders'] });
    return found.data?.renders ?? 0;
  },
  async add(teamId, month, n) {
    const updated = await db()
      .TeamRenderUsage.update({ usageTeam: teamId, month })
      .add({ renders: n })
      .go({ response: 'all_new' });
    return updated.data.renders ?? n;
  },
  async claimNotice(teamId, month, threshold: QuotaThreshold) {
    const told = new Date().toISOString();
    try {
      const update =
        threshold === 100
          ? db()
              .TeamRenderUsage.update({ usageTeam: teamId, month })
              .set({ told100At: told })
              .where((a, op) => op.notExists(a.told100At))
          : db()
              .TeamRenderUsage.update({ usageTeam: teamId, month })
              .set({ told80At: told })
              .where((a, op) => op.notExists(a.told80At));
      await update.go({ response: 'none' });
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};

/** `2026-11` → `November 2026`. */
const monthName = (month: string): string =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Tells the team's owner in-app (functions/lib/notify.ts `NOTICES.renderQuota`) and by e-mail
 * (functions/lib/mail-templates.ts `renderQuotaMail`). Never throws: each part logs its own
 * failure, and neither waits on the other.
 */
export const notifyRenderQuota: QuotaNotifier = async ({ teamId, month, threshold, quota }) => {
  const inApp = notifyTeam(teamId, 'owner', (team) => NOTICES.renderQuota(team, threshold, quota));
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
        quota,
        month: monthName(month),
        link: `${config().PUBLIC_URL}/settings/companies/${encodeURIComponent(teamId)}#/subscription`,
      }),
    });
  })().catch((error: unknown) => {
    logger.warn('render quota mail not sent', { teamId, threshold, error: error as Error });
  });
  await Promise.all([inApp, mail]);
};
