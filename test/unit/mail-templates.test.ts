/**
 * Every product e-mail rendered with sample data (functions/domain/mail-templates.ts; docs/infra.md
 * "E-mail"): the subject, the plain-text part and the HTML part each say what the recipient
 * must see (the link, the team, the amount), and a user-provided value (a name, a team's name, a
 * support message) arrives HTML-escaped in the HTML part and as written in the text part.
 */
import { describe, expect, it } from 'vitest';
import {
  emailChangeMail,
  emailChangeNoticeMail,
  emailVerificationMail,
  escapeHtml,
  invitationMail,
  passwordResetMail,
  paymentActionMail,
  supportMail,
  trialEndingMail,
  type RenderedMail,
} from '#domain/mail-templates.ts';

/** A value a user could type: markup, quotes and an ampersand. */
const HOSTILE = `<img src=x onerror="alert('x')"> & Co`;
const ESCAPED = '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; Co';
const BASE = 'https://app.picsnippets.example';

interface Case {
  mail: RenderedMail;
  subject: string;
  /** Text every part must show (in HTML: escaped). */
  shows: string[];
  /** Links the recipient must be able to open: a button and the URL written out. */
  links: string[];
  /** The user-provided values of this template, which must be escaped in HTML. */
  userValues: string[];
}

const CASES: Record<string, Case> = {
  invitation: {
    mail: invitationMail({
      teamName: HOSTILE,
      inviterName: 'Ana <ana@example.org>',
      role: 'admin',
      email: 'bo@example.org',
      registerLink: `${BASE}/register?invitation=c0de&x=1`,
      acceptLink: `${BASE}/settings?invitation=c0de#/companies`,
    }),
    subject: `You are invited to join ${HOSTILE} on PicSnippets`,
    shows: ['invited you to join the team', 'as an admin', 'bo@example.org'],
    links: [`${BASE}/register?invitation=c0de&x=1`, `${BASE}/settings?invitation=c0de#/companies`],
    userValues: [HOSTILE, 'Ana <ana@example.org>'],
  },
  'password reset': {
    mail: passwordResetMail({ name: HOSTILE, link: `${BASE}/password/reset/t0k?email=a%40b.c` }),
    subject: 'Reset your PicSnippets password',
    shows: ['within an hour', 'your password stays as it is'],
    links: [`${BASE}/password/reset/t0k?email=a%40b.c`],
    userValues: [HOSTILE],
  },
  'e-mail verification': {
    mail: emailVerificationMail({ name: HOSTILE, link: `${BASE}/email/verify/v3r` }),
    subject: 'Confirm your e-mail address for PicSnippets',
    shows: ['within a day'],
    links: [`${BASE}/email/verify/v3r`],
    userValues: [HOSTILE],
  },
  'e-mail change': {
    mail: emailChangeMail({
      name: HOSTILE,
      link: `${BASE}/email/verify/ch4`,
      fromEmail: 'old@example.org',
    }),
    subject: 'Confirm your new e-mail address for PicSnippets',
    shows: ['old@example.org', 'within an hour'],
    links: [`${BASE}/email/verify/ch4`],
    userValues: [HOSTILE],
  },
  'e-mail change notice': {
    mail: emailChangeNoticeMail({ name: HOSTILE, newEmail: 'new@example.org' }),
    subject: 'Your PicSnippets e-mail address is about to change',
    shows: ['new@example.org', 'change your password now'],
    links: [],
    userValues: [HOSTILE],
  },
  support: {
    mail: supportMail({
      from: 'user@example.org',
      subject: HOSTILE,
      message: `Line one\n${HOSTILE}\nLine three`,
      userName: 'Ana',
      teamName: 'Acme & Sons',
    }),
    subject: `[Support] ${HOSTILE}`,
    shows: ['Ana <user@example.org>', 'Acme & Sons', 'Line one', 'Line three'],
    links: [],
    userValues: [HOSTILE, 'Acme & Sons'],
  },
  'trial ending': {
    mail: trialEndingMail({
      name: HOSTILE,
      teamName: 'Acme',
      endsOn: 'December 5th, 2026',
      link: `${BASE}/settings/companies/t1#/subscription`,
      hasCard: true,
    }),
    subject: 'Your trial ends soon',
    shows: ['The trial of Acme ends on December 5th, 2026', 'card on file'],
    links: [`${BASE}/settings/companies/t1#/subscription`],
    userValues: [HOSTILE],
  },
  'trial ending without a card': {
    mail: trialEndingMail({
      name: 'Ana',
      teamName: 'Acme',
      endsOn: 'December 5th, 2026',
      link: `${BASE}/settings/companies/t1#/subscription`,
      hasCard: false,
    }),
    subject: 'Your trial ends soon',
    shows: ['ends on December 5th, 2026', 'Add a card before then to keep your plan'],
    links: [`${BASE}/settings/companies/t1#/subscription`],
    userValues: [],
  },
  'payment action': {
    mail: paymentActionMail({
      name: 'Ana',
      teamName: HOSTILE,
      amount: '29.00',
      currency: 'USD',
      link: `${BASE}/stripe/payment/pi_1?redirect=%2Fsettings`,
      cashierPath: 'stripe',
    }),
    subject: 'Confirm your payment',
    shows: ['29.00 USD', '/stripe/payment'],
    links: [`${BASE}/stripe/payment/pi_1?redirect=%2Fsettings`],
    userValues: [HOSTILE],
  },
};

describe('mail templates', () => {
  for (const [name, c] of Object.entries(CASES)) {
    describe(name, () => {
      it('has the subject, and a text part with what the recipient must see', () => {
        expect(c.mail.subject).toBe(c.subject);
        for (const text of [...c.shows, ...c.userValues]) expect(c.mail.text).toContain(text);
        // Each link on its own line, so every client makes it clickable.
        for (const link of c.links) expect(c.mail.text.split('\n')).toContain(link);
        expect(c.mail.text.endsWith('\n')).toBe(true);
      });

      it('has an HTML part saying the same, every user-provided value escaped', () => {
        const { html } = c.mail;
        expect(html.startsWith('<!doctype html>')).toBe(true);
        for (const text of c.shows) expect(html).toContain(escapeHtml(text));
        for (const value of c.userValues) {
          expect(html).toContain(escapeHtml(value));
          if (value !== escapeHtml(value)) expect(html).not.toContain(value);
        }
        expect(html).not.toMatch(/<img|<script|onerror="/i);
        for (const link of c.links) {
          // A button and the written-out URL, both opening the link.
          expect(html.split(`href="${escapeHtml(link)}"`)).toHaveLength(3);
          expect(html).toContain(`>${escapeHtml(link)}</a>`);
        }
        expect(html).toContain(`<title>${escapeHtml(c.subject)}</title>`);
      });
    });
  }

  it('escapes the five characters HTML gives meaning to', () => {
    expect(escapeHtml(HOSTILE)).toBe(ESCAPED);
  });

  it('keeps the line breaks of a support message in both parts', () => {
    const mail = CASES.support!.mail;
    expect(mail.text).toContain(`Line one\n${HOSTILE}\nLine three`);
    expect(mail.html).toContain(`white-space:pre-wrap">Line one\n${ESCAPED}\nLine three<`);
  });

  it('makes an anchor of http(s) links only', () => {
    const mail = passwordResetMail({ name: 'Ana', link: 'javascript:alert(1)' });
    expect(mail.html).not.toContain('href="javascript:');
    expect(mail.html).toContain('href="#"');
  });
});
