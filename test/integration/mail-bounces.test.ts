/**
 * Bounces and complaints (docs/infra.md "E-mail"): the mail-events handler
 * (functions/mail-events/handler.ts) takes SES's event records exactly as the configuration
 * set publishes them through SNS (the Bounce and Complaint examples of the SES developer guide,
 * "Examples of event data that Amazon SES publishes to Amazon SNS"), marks the addresses in the
 * local stack's DynamoDB, and later sends to them are skipped: the outbox gets nothing, the
 * action that mails (a password reset, an invitation) still succeeds. Every address is the
 * file's own (`uniqueEmail`): the outbox and the marks are shared with the other files that run on
 * the same stack.
 */
import type { SNSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '#functions/mail-events/handler.ts';
import { db } from '#lib/db/index.ts';
import { releaseAddress } from '#lib/mail-suppression.ts';
import { readOutbox, sendMail } from '#lib/mailer.ts';
import { metricTotals } from '#lib/metrics.ts';
import { TestClient } from '../support/client.ts';
import { currentTeamId, ownTeam, setTeamPlan, uniqueEmail } from '../support/designs.ts';
import { useLocalStack } from '../support/stack.ts';

const stack = useLocalStack({ warmChromium: false });

/** The SES developer guide's Bounce record, for one recipient. */
function bounceRecord(address: string, bounceType = 'Permanent', bounceSubType = 'General') {
  return {
    eventType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType,
      bouncedRecipients: [
        {
          emailAddress: address,
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ],
      timestamp: '2017-08-05T00:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      reportingMTA: 'dsn; mta.example.com',
    },
    mail: {
      timestamp: '2017-08-05T00:40:02.012Z',
      source: 'Sender Name <sender@example.com>',
      sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
      sendingAccountId: '123456789012',
      messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      destination: [address],
      headersTruncated: false,
      headers: [
        { name: 'From', value: 'Sender Name <sender@example.com>' },
        { name: 'To', value: address },
        { name: 'Subject', value: 'Message sent from Amazon SES' },
        { name: 'MIME-Version', value: '1.0' },
        {
          name: 'Content-Type',
          value: 'multipart/alternative; boundary="----=_Part_7307378_1629847660.1516840721503"',
        },
      ],
      commonHeaders: {
        from: ['Sender Name <sender@example.com>'],
        to: [address],
        messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
        subject: 'Message sent from Amazon SES',
      },
      tags: {
        'ses:configuration-set': ['ConfigSet'],
        'ses:source-ip': ['192.0.2.0'],
        'ses:from-domain': ['example.com'],
        'ses:caller-identity': ['ses_user'],
      },
    },
  };
}

/** The SES developer guide's Complaint record, for one recipient. */
function complaintRecord(address: string) {
  return {
    eventType: 'Complaint',
    complaint: {
      complainedRecipients: [{ emailAddress: address }],
      timestamp: '2017-08-05T00:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36',
      complaintFeedbackType: 'abuse',
      arrivalDate: '2017-08-05T00:41:02.669Z',
    },
    mail: {
      timestamp: '2017-08-05T00:40:01.123Z',
      source: 'Sender Name <sender@example.com>',
      sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
      sendingAccountId: '123456789012',
      messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
      destination: [address],
      headersTruncated: false,
      commonHeaders: { from: ['Sender Name <sender@example.com>'], to: [address] },
      tags: { 'ses:configuration-set': ['ConfigSet'] },
    },
  };
}

/** One SNS delivery to a Lambda, as SNS sends it, carrying `message` as its JSON string. */
function snsEvent(message: unknown): SNSEvent {
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn:
          'arn:aws:sns:us-east-1:123456789012:FeedbackTopic:2bcfbf39-05c3-41de-beaa-fcfcc21c8f55',
        Sns: {
          Type: 'Notification',
          MessageId: '95df01b4-ee98-5cb9-9903-4c221d41eb5e',
          TopicArn: 'arn:aws:sns:us-east-1:123456789012:FeedbackTopic',
          Subject: '',
          Message: JSON.stringify(message),
          Timestamp: '2017-08-05T00:41:03.000Z',
          SignatureVersion: '1',
          Signature: 'EXAMPLE',
          SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService.pem',
          UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe',
          MessageAttributes: {},
        },
      },
    ],
  };
}

const mailsTo = async (address: string) =>
  (await readOutbox()).filter((m) => m.to.toLowerCase() === address.toLowerCase());

async function register(email: string) {
  const c = new TestClient(stack().url);
  const password = 'amber-compass-64';
  const res = await c.request('POST', '/register', {
    name: 'Bo Bounce',
    email,
    team: 'Bounce Team',
    password,
    password_confirmation: password,
    terms: true,
    plan: 'free',
  });
  expect(res.status).toBe(201);
}

describe('a permanent bounce', () => {
  it('marks the address, and a later password reset is answered but not mailed', async () => {
    stack();
    const bounced = uniqueEmail('bounced');
    await register(bounced);
    expect(await mailsTo(bounced)).toHaveLength(1); // the address confirmation

    // SES writes the address as the receiving server reported it: the mark is case-blind.
    const reported = bounced.replace(/^b/, 'B').replace(/@example\.com$/, '@Example.com');
    expect(reported).not.toBe(bounced);
    const result = await handler(snsEvent(bounceRecord(reported)));
    expect(result).toEqual({ suppressed: 1 });
    const mark = (await db().SuppressedAddress.get({ email: bounced }).go()).data;
    expect(mark).toMatchObject({
      reason: 'bounce',
      detail: 'Permanent/General',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      eventAt: '2017-08-05T00:41:02.669Z',
    });
    expect(metricTotals()['MailBounced{type=permanent}']).toBeGreaterThanOrEqual(1);

    const before = metricTotals()['Mail{outcome=suppressed}'] ?? 0;
    const asked = await new TestClient(stack().url).request('POST', '/password/email', {
      email: bounced,
    });
    expect(asked.status).toBe(200);
    expect(asked.json).toMatchObject({ success: true });
    expect(await mailsTo(bounced)).toHaveLength(1); // still only the confirmation
    expect(metricTotals()['Mail{outcome=suppressed}']).toBe(before + 1);
  });

  it('does not fail an invitation to a bounced address: the invitation exists, no mail', async () => {
    const gone = uniqueEmail('gone');
    await handler(snsEvent(bounceRecord(gone)));
    // A team of this file's own, on Pro as data (as the seed puts the demo team) so it may
    // invite: the seeded demo team's invitations are read by other files.
    const owner = await ownTeam(stack().url, uniqueEmail('bounce-owner'));
    const teamId = await currentTeamId(owner);
    await setTeamPlan(teamId, 'pro-monthly');
    const res = await owner.request('POST', `/settings/companies/${teamId}/invitations`, {
      email: gone,
      role: 'member',
    });
    expect(res.status).toBeLessThan(300);
    expect(await mailsTo(gone)).toEqual([]);
    const pending = await owner.request('GET', `/settings/companies/${teamId}/invitations`);
    expect(JSON.stringify(pending.json)).toContain(gone);
  });

  it('mails the address again once an operator releases it', async () => {
    const fixed = uniqueEmail('fixed');
    await handler(snsEvent(bounceRecord(fixed)));
    await sendMail({ to: fixed, subject: 'One', text: 'one\n' });
    expect(await mailsTo(fixed)).toEqual([]);
    await releaseAddress(fixed);
    await sendMail({ to: fixed, subject: 'Two', text: 'two\n' });
    expect((await mailsTo(fixed)).map((m) => m.subject)).toEqual(['Two']);
  });
});

describe('other SES events', () => {
  it('marks an address whose owner complained', async () => {
    const complained = uniqueEmail('spam-button');
    expect(await handler(snsEvent(complaintRecord(complained)))).toEqual({
      suppressed: 1,
    });
    const mark = (await db().SuppressedAddress.get({ email: complained }).go()).data;
    expect(mark).toMatchObject({ reason: 'complaint', detail: 'abuse' });
    await sendMail({ to: complained, subject: 'Hi', text: 'hi\n' });
    expect(await mailsTo(complained)).toEqual([]);
    expect(metricTotals().MailComplained).toBeGreaterThanOrEqual(1);
  });

  it('keeps mailing after a transient bounce (mailbox full), counting it', async () => {
    const before = metricTotals()['MailBounced{type=transient}'] ?? 0;
    const full = uniqueEmail('full');
    const result = await handler(snsEvent(bounceRecord(full, 'Transient', 'MailboxFull')));
    expect(result).toEqual({ suppressed: 0 });
    expect((await db().SuppressedAddress.get({ email: full }).go()).data).toBeNull();
    expect(metricTotals()['MailBounced{type=transient}']).toBe(before + 1);
    await sendMail({ to: full, subject: 'Still here', text: 'hi\n' });
    expect(await mailsTo(full)).toHaveLength(1);
  });

  it('ignores a delivery event and a message that is not SES JSON', async () => {
    const delivery = { eventType: 'Delivery', mail: {}, delivery: { recipients: ['a@b.c'] } };
    expect(await handler(snsEvent(delivery))).toEqual({ suppressed: 0 });
    const garbled = snsEvent({});
    garbled.Records[0]!.Sns.Message = 'not json';
    expect(await handler(garbled)).toEqual({ suppressed: 0 });
  });
});
