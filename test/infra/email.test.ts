/**
 * E-mail in AWS (docs/infra.md "E-mail"; infra/constructs/email.ts): PicSnippetsStack
 * synthesised with `-c mailDomain=`, bundling skipped, as test/infra/stack.test.ts does. Checks
 * the SES identity, the configuration set and its SNS event destination, the mail-events
 * function subscribed to that topic, that only the mailing functions may send (scoped to the
 * identity and the configuration set), and that cdk-nag stays clean.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAILING_FUNCTIONS, mailSender } from '#infra/constructs/email.ts';
import { ALARM_THRESHOLDS } from '#infra/constructs/monitoring.ts';
import { functionGrants } from './permissions.ts';
import { synthesise, type Resources, type Synthesised } from './synth.ts';

const DOMAIN = 'mail.example.com';

let synthesised: Synthesised;
let template: Template;
let resources: Resources;

beforeAll(() => {
  synthesised = synthesise({ mailDomain: DOMAIN });
  ({ template, resources } = synthesised);
});

afterAll(() => synthesised.remove());

const ofType = (type: string): Array<[string, Resources[string]]> =>
  Object.entries(resources).filter(([, r]) => r.Type === type);
const only = (type: string): [string, Resources[string]] => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const envOf = (fn: Resources[string]) =>
  (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
const functionsByFeature = () =>
  new Map(
    ofType('AWS::Lambda::Function')
      .filter(([, fn]) => envOf(fn)?.FEATURE)
      .map(([id, fn]) => [String(envOf(fn).FEATURE), { id, fn }]),
  );

describe('SES identity and configuration set', () => {
  it('verifies the domain of context mailDomain with Easy DKIM, sending through the set', () => {
    const [setId, set] = only('AWS::SES::ConfigurationSet');
    const [, identity] = only('AWS::SES::EmailIdentity');
    expect(identity.Properties).toMatchObject({
      EmailIdentity: DOMAIN,
      DkimAttributes: { SigningEnabled: true },
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: setId } },
    });
    expect(set.Properties).toMatchObject({
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      ReputationOptions: { ReputationMetricsEnabled: true },
    });
    // The three DKIM CNAMEs are outputs, for the one-time DNS step.
    const outputs = Object.keys(template.toJSON().Outputs as Record<string, unknown>);
    expect(outputs.filter((o) => o.startsWith('EmailDkimRecord'))).toHaveLength(3);
  });

  it('publishes bounces and complaints to an encrypted, TLS-only SNS topic that SES may use', () => {
    const [setId] = only('AWS::SES::ConfigurationSet');
    const [, destination] = only('AWS::SES::ConfigurationSetEventDestination');
    const topicId = ofType('AWS::SNS::Topic').find(([id]) =>
      id.startsWith('EmailFeedbackTopic'),
    )![0];
    expect(destination.Properties).toMatchObject({
      ConfigurationSetName: { Ref: setId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: topicId } },
      },
    });
    const topic = resources[topicId]!;
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    const policy = ofType('AWS::SNS::TopicPolicy').find(([, p]) =>
      JSON.stringify(p.Properties.Topics).includes(topicId),
    )![1];
    const statements = JSON.stringify(policy.Properties.PolicyDocument);
    expect(statements).toContain('"aws:SecureTransport":"false"');
    expect(statements).toContain('"Service":"ses.amazonaws.com"');
    expect(statements).toContain('sns:Publish');
    // The key lets SES encrypt for this configuration set only.
    const keyId = (topic.Properties.KmsMasterKeyId as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const keyPolicy = JSON.stringify(resources[keyId]!.Properties.KeyPolicy);
    expect(keyPolicy).toContain('"Service":"ses.amazonaws.com"');
    expect(keyPolicy).toContain('configuration-set/');
  });

  it('delivers the topic to the mail-events function, which may only write suppressions', () => {
    const events = functionsByFeature().get('mail-events')!;
    expect(events).toBeDefined();
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      Endpoint: { 'Fn::GetAtt': [events.id, 'Arn'] },
    });
    expect(envOf(events.fn).TABLE_NAME).toBeDefined();
    expect(functionGrants(resources)['mail-events']).toEqual({
      memory: 256,
      timeout: 30,
      iam: [
        'dynamodb:PutItem @ DataTable',
        'logs:CreateLogStream,logs:PutLogEvents @ EmailEventsLogs',
      ],
    });
  });
});

describe('who may send', () => {
  it('grants ses:SendEmail to exactly the mailing functions, on the identity and the set only', () => {
    const grants = functionGrants(resources);
    const senders = Object.entries(grants)
      .filter(([, g]) => g.iam.some((s) => s.includes('ses:')))
      .map(([feature]) => feature)
      .sort();
    expect(senders).toEqual([...MAILING_FUNCTIONS].sort());
    for (const feature of MAILING_FUNCTIONS) {
      const ses = grants[feature]!.iam.filter((s) => s.includes('ses:'));
      expect(ses, feature).toEqual(['ses:SendEmail @ EmailConfigurationSet EmailIdentity']);
    }
    // The two ARNs spelt out: the identity (its Ref is the domain) and the configuration set.
    const [identityId] = only('AWS::SES::EmailIdentity');
    const [setId] = only('AWS::SES::ConfigurationSet');
    const statements = ofType('AWS::IAM::Policy').flatMap(
      ([, p]) =>
        (
          p.Properties.PolicyDocument as {
            Statement: Array<{ Action: unknown; Resource: unknown }>;
          }
        ).Statement,
    );
    const sends = statements.filter((st) => JSON.stringify(st.Action).includes('ses:'));
    expect(sends).toHaveLength(MAILING_FUNCTIONS.length);
    for (const st of sends) {
      expect(st.Action).toBe('ses:SendEmail');
      const arns = [st.Resource].flat().map((r) => JSON.stringify(r));
      expect(arns).toHaveLength(2);
      expect(arns.join(' ')).toContain(`":identity/",{"Ref":"${identityId}"}`);
      expect(arns.join(' ')).toContain(`":configuration-set/",{"Ref":"${setId}"}`);
    }
    // No other policy in the stack mentions SES actions.
    const sesPolicies = ofType('AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('"ses:'),
    );
    expect(sesPolicies).toHaveLength(MAILING_FUNCTIONS.length);
  });

  it('lets the render-notices function read, write notifications and send, nothing more', () => {
    // docs/security.md "Render limits": the render role cannot mail, this function does.
    expect(functionGrants(resources)['render-notices']).toEqual({
      memory: 256,
      timeout: 30,
      iam: [
        'dynamodb:GetItem,dynamodb:PutItem @ DataTable',
        'logs:CreateLogStream,logs:PutLogEvents @ RenderNoticesLogs',
        'ses:SendEmail @ EmailConfigurationSet EmailIdentity',
      ],
    });
    expect(functionGrants(resources).render!.iam.join(' ')).not.toContain('ses:');
  });

  it('hands the mailing functions the transport, the sender and the configuration set', () => {
    const [setId] = only('AWS::SES::ConfigurationSet');
    for (const [feature, { fn }] of functionsByFeature()) {
      const env = envOf(fn);
      if ((MAILING_FUNCTIONS as readonly string[]).includes(feature)) {
        expect(env, feature).toMatchObject({
          MAIL_TRANSPORT: 'ses',
          MAIL_FROM: `PicSnippets <no-reply@${DOMAIN}>`,
          SES_CONFIGURATION_SET: { Ref: setId },
        });
      } else {
        expect(env.MAIL_TRANSPORT, feature).toBeUndefined();
        expect(env.SES_CONFIGURATION_SET, feature).toBeUndefined();
      }
    }
  });

  it('refuses a bad domain or a sender on another domain before anything is built', () => {
    expect(mailSender('example.com')).toBe('PicSnippets <no-reply@example.com>');
    expect(mailSender('example.com', 'Team <hello@example.com>')).toBe('Team <hello@example.com>');
    expect(() => mailSender('Example.com')).toThrow('lower-case domain');
    expect(() => mailSender('localhost')).toThrow('lower-case domain');
    expect(() => mailSender('example.com', 'hello@example.org')).toThrow('address on example.com');
  });
});

describe('a stage without a mail domain', () => {
  it('builds no SES resources and turns mail off in the mailing functions', () => {
    const plain = synthesise();
    try {
      const json = plain.template.toJSON() as { Resources: Resources };
      const types = Object.values(json.Resources).map((r) => r.Type);
      expect(types.filter((t) => t.startsWith('AWS::SES::'))).toEqual([]);
      expect(JSON.stringify(json)).not.toContain('ses:SendEmail');
      for (const fn of Object.values(json.Resources).filter(
        (r) => r.Type === 'AWS::Lambda::Function',
      )) {
        const env = envOf(fn);
        const mails = (MAILING_FUNCTIONS as readonly string[]).includes(String(env.FEATURE));
        expect(env.MAIL_TRANSPORT, String(env.FEATURE)).toBe(mails ? 'off' : undefined);
        expect(env.FEATURE).not.toBe('mail-events');
      }
    } finally {
      plain.remove();
    }
  });
});

describe('mails bounced (docs/infra.md "Observability")', () => {
  it('alarms on permanent bounces and complaints of the mail-events function', () => {
    const alarm = ofType('AWS::CloudWatch::Alarm')
      .map(([, a]) => a.Properties)
      .find((a) => String(a.AlarmDescription).includes('bounced'))!;
    expect(alarm).toMatchObject({
      Threshold: ALARM_THRESHOLDS.mailBounces,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const metrics = JSON.stringify(alarm.Metrics);
    expect(metrics).toContain('"MetricName":"MailBounced"');
    expect(metrics).toContain('{"Name":"type","Value":"permanent"}');
    expect(metrics).toContain('"MetricName":"MailComplained"');
    expect(metrics).toContain('{"Name":"service","Value":"mail-events"}');
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  it('leaves no unacknowledged finding with e-mail on', () => {
    const report = JSON.parse(
      readFileSync(join(synthesised.outdir, 'validation-report.json'), 'utf8'),
    ) as {
      pluginReports: Array<{
        pluginName: string;
        violations: Array<{
          ruleName: string;
          violatingConstructs?: Array<{ constructPath: string }>;
        }>;
      }>;
    };
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.map(
        (v) =>
          `${v.ruleName} ${(v.violatingConstructs ?? []).map((c) => c.constructPath).join(', ')}`,
      ),
    );
    expect(findings).toEqual([]);
  });
});
