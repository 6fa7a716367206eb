/**
 * Bounces and complaints (docs/infra.md "E-mail"): the mail-events handler
 * (functions/mail-events/handler.ts) takes SES's event records exactly as the configuration
 * set publishes them through SNS (the Bounce and Complaint examples of the SES developer guide,
 * "Examples of event data that Amazon SES publishes to Amazon SNS"), marks the addresses in the
 * local stack's DynamoDB, and later sends to them are skipped: the outbox gets nothing, the
 * action that mails (a password reset, an invitation) still succeeds.
 */
import type { SNSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '#functions/mail-events/handler.ts';
import { db } from '#lib/db/index.ts';
import { releaseAddress } from '#lib/mail-suppression.ts';
import { readOutbox, sendMail } from '#lib/mailer.ts';
import { metricTotals } from '#lib/metrics.ts';
import { TestClient } from '../support/client.ts';
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
    await register('bounced@example.org');
    expect(await mailsTo('bounced@example.org')).toHaveLength(1); // the address confirmation

    // SES writes the address as the receiving server reported it: the mark is case-blind.
    const result = await handler(snsEvent(bounceRecord('Bounced@Example.org')));
    expect(result).toEqual({ suppressed: 1 });
    const mark = (await db().SuppressedAddress.get({ email: 'bounced@example.org' }).go()).data;
    expect(mark).toMatchObject({
      reason: 'bounce',
      detail: 'Permanent/General',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      eventAt: '2017-08-05T00:41:02.669Z',
    });
    expect(metricTotals()['MailBounced{type=permanent}']).toBeGreaterThanOrEqual(1);

    const before = metricTotals()['Mail{outcome=suppressed}'] ?? 0;
    const asked = await new TestClient(stack().url).request('POST', '/password/email', {
      email: 'bounced@example.org',
    });
    expect(asked.status).toBe(200);
    expect(asked.json).toMatchObject({ success: true });
    expect(await mailsTo('bounced@example.org')).toHaveLength(1); // still only the confirmation
    expect(metricTotals()['Mail{outcome=suppressed}']).toBe(before + 1);
  });

  it('does not fail an invitation to a bounced address: the invitation exists, no mail', async () => {
    await handler(snsEvent(bounceRecord('gone@example.org')));
    const owner = new TestClient(stack().url);
    expect((await owner.login('demo@example.com')).status).toBe(200);
    const res = await owner.request('POST', '/settings/companies/team-demo/invitations', {
      email: 'gone@example.org',
      role: 'member',
    });
    expect(res.status).toBeLessThan(300);
    expect(await mailsTo('gone@example.org')).toEqual([]);
    const pending = await owner.request('GET', '/settings/companies/team-demo/invitations');
    expect(JSON.stringify(pending.json)).toContain('gone@example.org');
  });

  it('mails the address again once an operator releases it', async () => {
    await handler(snsEvent(bounceRecord('fixed@example.org')));
    await sendMail({ to: 'fixed@example.org', subject: 'One', text: 'one\n' });
    expect(await mailsTo('fixed@example.org')).toEqual([]);
    await releaseAddress('fixed@example.org');
    await sendMail({ to: 'fixed@example.org', subject: 'Two', text: 'two\n' });
    expect((await mailsTo('fixed@example.org')).map((m) => m.subject)).toEqual(['Two']);
  });
});

describe('other SES events', () => {
  it('marks an address whose owner complained', async () => {
    expect(await handler(snsEvent(complaintRecord('spam-button@example.org')))).toEqual({
      suppressed: 1,
    });
    const mark = (await db().SuppressedAddress.get({ email: 'spam-button@example.org' }).go()).data;
    expect(mark).toMatchObject({ reason: 'complaint', detail: 'abuse' });
    await sendMail({ to: 'spam-button@example.org', subject: 'Hi', text: 'hi\n' });
    expect(await mailsTo('spam-button@example.org')).toEqual([]);
    expect(metricTotals().MailComplained).toBeGreaterThanOrEqual(1);
  });

  it('keeps mailing after a transient bounce (mailbox full), counting it', async () => {
    const before = metricTotals()['MailBounced{type=transient}'] ?? 0;
    const result = await handler(
      snsEvent(bounceRecord('full@example.org', 'Transient', 'MailboxFull')),
    );
    expect(result).toEqual({ suppressed: 0 });
    expect((await db().SuppressedAddress.get({ email: 'full@example.org' }).go()).data).toBeNull();
    expect(metricTotals()['MailBounced{type=transient}']).toBe(before + 1);
    await sendMail({ to: 'full@example.org', subject: 'Still here', text: 'hi\n' });
    expect(await mailsTo('full@example.org')).toHaveLength(1);
  });

  it('ignores a delivery event and a message that is not SES JSON', async () => {
    const delivery = { eventType: 'Delivery', mail: {}, delivery: { recipients: ['a@b.c'] } };
    expect(await handler(snsEvent(delivery))).toEqual({ suppressed: 0 });
    const garbled = snsEvent({});
    garbled.Records[0]!.Sns.Message = 'not json';
    expect(await handler(garbled)).toEqual({ suppressed: 0 });
  });
});
