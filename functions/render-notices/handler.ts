/**
 * The render-notices function (AWS): tells a team's owner that its renders this month reached
 * 80 % or 100 % of its plan's allowance, in-app and by e-mail (docs/security.md "Render limits";
 * functions/domain/render-quota-notice.ts). Not an HTTP route: the render function invokes it
 * asynchronously (`InvocationType: 'Event'`, functions/render/quota.ts) once its conditional
 * write on the team-month usage record has won, because the render role may neither write
 * notifications nor send mail (infra/constructs/render.ts).
 *
 * - The payload is `{ teamId, threshold: 80 | 100, month: 'YYYY-MM', used, allowance }` and
 *   nothing else (`RenderQuotaNoticeSchema`); anything else is refused with an error before
 *   any read or write (test/integration/render-notices.test.ts).
 * - A valid notice is sent once per invocation; the send never throws (each part logs its own
 *   failure), so Lambda's retries of a function error never send it twice. Retries are off
 *   anyway (infra/constructs/render.ts).
 */
import type { Context } from 'aws-lambda';
import { logger } from '#lib/logger.ts';
import { RenderQuotaNoticeSchema, sendRenderQuotaNotice } from '#domain/render-quota-notice.ts';

/**
 * Lambda entry: one notice.
 * @returns what was told, for tests and the log.
 * @throws Error naming the invalid fields when the payload is not a notice (nothing is sent).
 */
export async function handler(
  event: unknown,
  context?: Context,
): Promise<{ teamId: string; threshold: 80 | 100 }> {
  if (context) logger.addContext(context);
  try {
    const parsed = RenderQuotaNoticeSchema.safeParse(event);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join('.') || '(payload)').join(', ');
      logger.error('render quota notice refused: not a notice', { fields });
      throw new Error(`render quota notice refused: ${fields}`);
    }
    const notice = parsed.data;
    await sendRenderQuotaNotice(notice);
    logger.info('render quota notice sent', {
      teamId: notice.teamId,
      threshold: notice.threshold,
      month: notice.month,
    });
    return { teamId: notice.teamId, threshold: notice.threshold };
  } finally {
    logger.resetKeys();
  }
}
