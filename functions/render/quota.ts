/**
 * The monthly render quota's real collaborators (docs/security.md "Render limits"): the
 * team-month record in DynamoDB (functions/lib/db/entities-usage.ts `TeamRenderUsage`) behind
 * usage.ts's `UsageStore`, and the owner's notice (in-app and e-mail,
 * functions/domain/render-quota-notice.ts) behind its `QuotaNotifier`: sent here locally, handed
 * to the render-notices function in AWS. The counting itself is in usage.ts.
 */
import { InvokeCommand, LambdaClient, type LambdaClientConfig } from '@aws-sdk/client-lambda';
import { config } from '#lib/config.ts';
import { db, isConditionFailure } from '#lib/db/index.ts';
import { logger } from '#lib/logger.ts';
import { sendRenderQuotaNotice, type RenderQuotaNotice } from '#domain/render-quota-notice.ts';
import { traced } from '#lib/tracing.ts';
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

let lambda: LambdaClient | undefined;
let lambdaOptions: LambdaClientConfig = {};

/**
 * Test seam: options for the Lambda client that invokes the render-notices function (an
 * `endpoint` of a local HTTP server, credentials), so tests exercise the real SDK up to the
 * request it sends. Resets the client.
 */
export function setNoticeLambdaOptions(options: LambdaClientConfig = {}): void {
  lambdaOptions = options;
  lambda = undefined;
}

/**
 * Time budget of the invoke, ms: an asynchronous invoke is answered (202) as soon as Lambda has
 * queued the event, so a slow answer means a fault; one retry at most.
 */
const INVOKE_TIMEOUTS = {
  connectionTimeout: 1_000,
  requestTimeout: 3_000,
  throwOnRequestTimeout: true,
};

/**
 * Tells the team's owner (docs/security.md "Render limits"). In AWS (STAGE `aws`) the render role
 * may neither write notifications nor send mail, so the notice goes to the render-notices
 * function (`RENDER_NOTICES_FUNCTION_NAME`) by an asynchronous invoke (`InvocationType:
 * 'Event'`, payload functions/domain/render-quota-notice.ts `RenderQuotaNotice`), which sends it.
 * Elsewhere the render sends it itself through the same {@link sendRenderQuotaNotice}. Never
 * throws: a failed invoke is logged (test/unit/render-quota-invoke.test.ts).
 */
export const notifyRenderQuota: QuotaNotifier = async ({
  teamId,
  month,
  threshold,
  quota,
  used,
}) => {
  const notice: RenderQuotaNotice = { teamId, threshold, month, used, allowance: quota };
  const c = config();
  if (c.STAGE !== 'aws') {
    await sendRenderQuotaNotice(notice);
    return;
  }
  const functionName = c.RENDER_NOTICES_FUNCTION_NAME;
  if (!functionName) {
    logger.error('render quota notice not sent: RENDER_NOTICES_FUNCTION_NAME is unset', {
      teamId,
      threshold,
    });
    return;
  }
  try {
    lambda ??= traced(
      new LambdaClient({
        region: c.AWS_REGION,
        maxAttempts: 2,
        requestHandler: INVOKE_TIMEOUTS,
        ...lambdaOptions,
      }),
    );
    await lambda.send(
      new InvokeCommand({
        FunctionName: functionName,
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify(notice)),
      }),
    );
  } catch (error) {
    logger.warn('render quota notice not handed to the render-notices function', {
      teamId,
      threshold,
      error: error as Error,
    });
  }
};
