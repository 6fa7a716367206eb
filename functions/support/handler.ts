/**
 * The `support` feature (docs/notifications.md "Support": "Support form: from, subject, message",
 * docs/adr/0044-the-api-contract.md "The API contract" `POST /support/email`, docs/accounts.md
 * "Error answers in the SPA": "Support success"; docs/notifications.md "Support"): the signed-in
 * user writes to the support address (`SUPPORT_EMAIL`). The sender is always the session's user,
 * never a field of the body; the user and team ids travel in headers so support can find the
 * account, and replies go to the user's address.
 */
import { SUPPORT_MESSAGES, SupportBody } from '#shared/contract/notifications.ts';
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { tooManyRequests, unauthenticated } from '#lib/errors.ts';
import { featureHandler, json, route } from '#lib/http.ts';
import { supportMail } from '#domain/mail-templates.ts';
import { sendMail } from '#lib/mailer.ts';
import { refundAttempt, takeAttempt } from '#lib/limits/attempts.ts';

/** Support messages one user may send per {@link SUPPORT_WINDOW_MS} (docs/notifications.md). */
export const MAX_SUPPORT_MESSAGES = 5;
/** The support limit's window, ms (an hour). */
export const SUPPORT_WINDOW_MS = 60 * 60 * 1000;

/** The headers that name the sender's account (docs/notifications.md "Support"). */
export const SUPPORT_HEADERS = {
  user: 'X-PicSnippets-User-Id',
  team: 'X-PicSnippets-Team-Id',
} as const;

/** Runs of white space (line breaks included) as one space: a subject is one line. */
const oneLine = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

export const handler = featureHandler('support', {
  /**
   * Sends the message to `SUPPORT_EMAIL`, at most {@link MAX_SUPPORT_MESSAGES} an hour per
   * user. A message that could not be sent does not count.
   * @throws AppError 422 (subject, message), 429 `SUPPORT_MESSAGES.tooMany` past the limit.
   */
  'POST /support/email': route({
    body: SupportBody,
    handle: async ({ auth, body }) => {
      const user = auth.user;
      if (!user) throw unauthenticated();
      const key = `support#user#${user.userId}`;
      if (!(await takeAttempt(key, MAX_SUPPORT_MESSAGES, Date.now(), SUPPORT_WINDOW_MS)))
        throw tooManyRequests(SUPPORT_MESSAGES.tooMany);
      const teamId = user.currentTeamId ?? '';
      const team = teamId ? (await db().Team.get({ teamId }).go()).data : null;
      try {
        await sendMail({
          to: config().SUPPORT_EMAIL,
          ...supportMail({
            from: user.email,
            subject: oneLine(body.subject),
            message: body.message,
            userName: user.name,
            teamName: team?.name,
          }),
          headers: {
            'Reply-To': user.email,
            [SUPPORT_HEADERS.user]: user.userId,
            ...(teamId ? { [SUPPORT_HEADERS.team]: teamId } : {}),
          },
        });
      } catch (error) {
        await refundAttempt(key);
        throw error;
      }
      return json(200, { success: true });
    },
  }),
});
