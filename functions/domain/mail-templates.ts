/**
 * Every e-mail the product sends, as templates: typed data in, `{ subject, text, html }` out
 * (docs/infra.md "E-mail"). One template per message:
 *
 * - {@link invitationMail}: functions/teams/members.ts `invite`, to the invitee;
 * - {@link passwordResetMail}: functions/auth/account.ts, to the account;
 * - {@link emailVerificationMail}, {@link emailChangeMail}: functions/auth/email-verification.ts,
 *   to the account's address or the new one;
 * - {@link emailChangeNoticeMail}: functions/auth/account.ts, to the old address;
 * - {@link supportMail}: the support feature (`POST /support/email`), to the support inbox;
 * - {@link trialEndingMail}, {@link paymentActionMail}: functions/stripe-webhook/events.ts, to the
 *   team owner;
 * - {@link renderQuotaMail}: functions/render/quota.ts, to the team owner.
 *
 * Both parts come from one list of blocks, so the plain-text part (what the local outbox shows,
 * and what text-only clients read) and the HTML part cannot say different things. In the HTML
 * part every value is HTML-escaped (a user's name or a team's name is user input); links are
 * both a button and the URL written out, so a client that drops the button still shows it.
 * test/unit/mail-templates.test.ts renders each template with sample data.
 */

/** A rendered message, ready for functions/lib/mailer.ts `sendMail` (with `to`). */
export interface RenderedMail {
  subject: string;
  /** The plain-text part: paragraphs split by a blank line, each link on its own line. */
  text: string;
  /** The HTML part: a complete document, every value escaped. */
  html: string;
}

/**
 * One part of a message body: a paragraph, a link (button in HTML, the URL on its own line in
 * text), or a quoted text kept as written (a support message: line breaks kept).
 */
type Block =
  { p: string } | { link: string; label: string } | { quote: string } | { small: string };

/** Escapes `& < > " '` for HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const BRAND = '#4f46e5';

/** The text part: blocks split by a blank line, ending in a newline. */
function textOf(blocks: readonly Block[]): string {
  return `${blocks
    .map((b) => ('p' in b ? b.p : 'link' in b ? b.link : 'quote' in b ? b.quote : b.small))
    .join('\n\n')}\n`;
}

/** One block as HTML; only `http(s)` links become anchors (templates pass product URLs). */
function htmlBlock(b: Block): string {
  if ('p' in b) return `<p style="margin:0 0 16px">${escapeHtml(b.p)}</p>`;
  if ('small' in b)
    return `<p style="margin:0 0 16px;font-size:13px;color:#6b7280">${escapeHtml(b.small)}</p>`;
  if ('quote' in b)
    return `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:3px solid #d1d5db;white-space:pre-wrap">${escapeHtml(b.quote)}</blockquote>`;
  const href = /^https?:\/\//i.test(b.link) ? escapeHtml(b.link) : '#';
  return (
    `<p style="margin:0 0 8px"><a href="${href}" style="display:inline-block;padding:10px 18px;` +
    `border-radius:6px;background:${BRAND};color:#ffffff;text-decoration:none;font-weight:600">` +
    `${escapeHtml(b.label)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:13px;color:#6b7280;word-break:break-all">` +
    `<a href="${href}" style="color:${BRAND}">${escapeHtml(b.link)}</a></p>`
  );
}

/** The HTML part: a small, table-free document with inline styles (mail clients drop `<style>`). */
function htmlOf(subject: string, blocks: readonly Block[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f9fafb;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#111827">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">',
    `<p style="margin:0 0 24px;font-weight:700;color:${BRAND}">PicSnippets</p>`,
    ...blocks.map(htmlBlock),
    '</div></body></html>',
    '',
  ].join('\n');
}

/** A message from its subject and body blocks. */
function render(subject: string, blocks: readonly Block[]): RenderedMail {
  return { subject, text: textOf(blocks), html: htmlOf(subject, blocks) };
}

/**
 * A team invitation (docs/accounts.md "Validation rules"; docs/security.md "Invitations and e-mail
 * ownership"): one link to register with it, one to accept it signed in. The links carry the
 * invitation's code.
 */
export function invitationMail(data: {
  teamName: string;
  /** The inviter's name; absent, "A team owner". */
  inviterName?: string | undefined;
  role: string;
  /** The invitee's address (lower case). */
  email: string;
  registerLink: string;
  acceptLink: string;
}): RenderedMail {
  const who = data.inviterName ?? 'A team owner';
  const as = data.role === 'admin' ? 'an admin' : 'a member';
  return render(`You are invited to join ${data.teamName} on PicSnippets`, [
    { p: `${who} invited you to join the team "${data.teamName}" on PicSnippets as ${as}.` },
    { p: 'New to PicSnippets? Create your account here:' },
    { link: data.registerLink, label: 'Create your account' },
    { p: 'Already have an account? Sign in and accept it here:' },
    { link: data.acceptLink, label: 'Accept the invitation' },
    {
      small: `The links are yours alone: whoever has them can join the team as ${data.email}.`,
    },
  ]);
}

/** A password reset link, valid for an hour (docs/security.md "Account existence"). */
export function passwordResetMail(data: { name: string; link: string }): RenderedMail {
  return render('Reset your PicSnippets password', [
    { p: `Hello ${data.name},` },
    {
      p: 'Someone asked to reset the password of your PicSnippets account. To choose a new password, open this link within an hour:',
    },
    { link: data.link, label: 'Choose a new password' },
    { small: 'If it was not you, ignore this e-mail: your password stays as it is.' },
  ]);
}

/** The address confirmation after registration, valid for a day (docs/security.md). */
export function emailVerificationMail(data: { name: string; link: string }): RenderedMail {
  return render('Confirm your e-mail address for PicSnippets', [
    { p: `Hello ${data.name},` },
    {
      p: 'Please confirm that this address belongs to your PicSnippets account by opening this link within a day:',
    },
    { link: data.link, label: 'Confirm your address' },
    { small: 'If you did not create an account, ignore this e-mail.' },
  ]);
}

/** To the new address of an e-mail change: the link that makes the change, valid for an hour. */
export function emailChangeMail(data: {
  name: string;
  link: string;
  /** The account's current address; absent, "another address". */
  fromEmail?: string | undefined;
}): RenderedMail {
  return render('Confirm your new e-mail address for PicSnippets', [
    { p: `Hello ${data.name},` },
    {
      p: `Someone asked to use this address for the PicSnippets account of ${data.fromEmail ?? 'another address'}. To confirm the change, open this link within an hour:`,
    },
    { link: data.link, label: 'Confirm the new address' },
    { small: 'If it was not you, ignore this e-mail: the account keeps its address.' },
  ]);
}

/** To the old address of an e-mail change: a notice, no link (docs/security.md). */
export function emailChangeNoticeMail(data: { name: string; newEmail: string }): RenderedMail {
  return render('Your PicSnippets e-mail address is about to change', [
    { p: `Hello ${data.name},` },
    {
      p: `Someone signed in to your PicSnippets account asked to change its e-mail address to ${data.newEmail}. The change happens only when the link sent to that address is opened.`,
    },
    {
      p: 'If it was not you, change your password now: it also signs out every other session.',
    },
  ]);
}

/**
 * A user's message to support (docs/notifications.md "Support" `POST /support/email`: from,
 * subject, message), to the support inbox. The sender's address is shown; a reply goes to it
 * through the mailer's `Reply-To` header, which the caller sets.
 */
export function supportMail(data: {
  /** The address the user wrote from (the form's `from`). */
  from: string;
  subject: string;
  message: string;
  /** The signed-in user's name and team, when known. */
  userName?: string | undefined;
  teamName?: string | undefined;
}): RenderedMail {
  const who = data.userName ? `${data.userName} <${data.from}>` : data.from;
  return render(`[Support] ${data.subject}`, [
    { p: `From: ${who}${data.teamName ? ` (team ${data.teamName})` : ''}` },
    { p: `Subject: ${data.subject}` },
    { quote: data.message },
    { small: 'Reply to this e-mail to answer the user.' },
  ]);
}

/** `customer.subscription.trial_will_end` (docs/billing.md): when the trial ends. */
export function trialEndingMail(data: {
  name: string;
  teamName: string;
  /** The end date as the notice shows it ('MMMM Do, YYYY', e.g. `December 5th, 2026`). */
  endsOn: string;
  /** The team's subscription settings. */
  link: string;
  /** The team has a card on file (a card-less trial ends unless one is added, docs/billing.md "Trials"). */
  hasCard: boolean;
}): RenderedMail {
  const after = data.hasCard
    ? 'Your plan continues afterwards with the card on file:'
    : 'Add a card before then to keep your plan; without one the team returns to the free plan:';
  return render('Your trial ends soon', [
    { p: `Hello ${data.name},` },
    { p: `The trial of ${data.teamName} ends on ${data.endsOn}. ${after}` },
    { link: data.link, label: 'See your subscription' },
  ]);
}

/**
 * `invoice.payment_action_required` (docs/accounts.md "Screens", docs/billing.md): the bank asks
 * the owner to confirm a payment on the payment-confirmation page.
 */
export function paymentActionMail(data: {
  name: string;
  teamName: string;
  /** The amount due, e.g. `29.00`. */
  amount: string;
  /** ISO currency code, upper case. */
  currency: string;
  link: string;
  /** The payment page's path prefix, e.g. `stripe` (Cashier's path). */
  cashierPath: string;
}): RenderedMail {
  return render('Confirm your payment', [
    { p: `Hello ${data.name},` },
    {
      p: `Your bank asks you to confirm the payment of ${data.amount} ${data.currency} for ${data.teamName}. Please confirm it here:`,
    },
    { link: data.link, label: 'Confirm your payment' },
    {
      small: `(This link opens the payment page at /${data.cashierPath}/payment; the subscription waits until the payment is confirmed.)`,
    },
  ]);
}

/**
 * A webhook endpoint kept failing and was disabled (docs/developer-api.md
 * "Answering, retries and disabling"); sent once to the team's owner by
 * functions/webhooks/worker.ts.
 */
export function webhookDisabledMail(data: {
  name: string;
  teamName: string;
  /** The endpoint's URL (shown as text, never a link). */
  url: string;
  /** Days it failed. */
  days: number;
  /** The team's webhook settings. */
  link: string;
}): RenderedMail {
  return render(`A webhook endpoint of ${data.teamName} was disabled`, [
    { p: `Hello ${data.name},` },
    {
      p: `Deliveries to a webhook endpoint of ${data.teamName} have failed for ${data.days} days, so we stopped sending events to it:`,
    },
    { quote: data.url },
    {
      p: 'Fix the receiver, then turn the endpoint on again in the team settings. Its recent deliveries show the answers it gave.',
    },
    { link: data.link, label: 'Open webhook settings' },
  ]);
}

/**
 * This month's renders reached 80 % or 100 % of the plan's quota (docs/security.md "Render
 * limits"); sent once per threshold and month by functions/render/quota.ts.
 */
export function renderQuotaMail(data: {
  name: string;
  teamName: string;
  /** 80 or 100. */
  percent: number;
  /** The plan's renders a month. */
  quota: number;
  /** The month, e.g. `November 2026`. */
  month: string;
  /** The team's subscription settings. */
  link: string;
}): RenderedMail {
  const quota = data.quota.toLocaleString('en-US');
  const full = data.percent >= 100;
  return render(
    full
      ? `${data.teamName} has used all its renders for ${data.month}`
      : `${data.teamName} has used ${data.percent}% of its renders for ${data.month}`,
    [
      { p: `Hello ${data.name},` },
      full
        ? {
            p: `${data.teamName} has drawn all ${quota} personalised images its plan includes for ${data.month}. Images already drawn are still shown; new ones show each design's fallback image until the month ends, or until you choose a larger plan:`,
          }
        : {
            p: `${data.teamName} has drawn ${data.percent}% of the ${quota} personalised images its plan includes for ${data.month}. Once all are used, new images show each design's fallback image until the month ends. A larger plan includes more:`,
          },
      { link: data.link, label: 'See plans' },
      { small: 'Images answered from the cache are free and do not count.' },
    ],
  );
}
