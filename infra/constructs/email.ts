/**
 * E-mail that really sends (docs/infra.md "E-mail"; docs/operations.md "First start"): the SES
 * domain identity of context `mailDomain` with Easy DKIM, a configuration set that publishes
 * bounces and complaints to an encrypted SNS topic, the mail-events Lambda that marks those
 * addresses (functions/mail-events/handler.ts), and `ses:SendEmail` for exactly the functions that
 * mail ({@link MAILING_FUNCTIONS}), scoped to this identity and this configuration set.
 *
 * Built only when the stage has a sending domain (infra/stack.ts); without one the mailing
 * functions run with `MAIL_TRANSPORT=off` and log what they would have sent.
 */
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { ApiFeature } from './api.ts';
import { HandlerFunction, type FunctionFeature } from './handler-function.ts';

/**
 * The API features that send mail, and what they send (functions/domain/mail-templates.ts): `auth`
 * (address confirmation and change, password reset), `teams` (invitations), `stripe-webhook`
 * (trial ending, payment action) and `support` (a user's message to the support inbox). No
 * other function gets `ses:SendEmail`; test/infra/email.test.ts checks both sides.
 */
export const MAILING_FEATURES: readonly ApiFeature[] = [
  'auth',
  'teams',
  'stripe-webhook',
  'support',
];

/**
 * Every function that sends mail: the {@link MAILING_FEATURES} and `render-notices` (the render
 * quota notices, functions/render-notices/handler.ts; docs/security.md "Render limits"), which
 * infra/stack.ts lets send with {@link Email.grantSend}, or runs with `MAIL_TRANSPORT=off`.
 */
export const MAILING_FUNCTIONS: readonly FunctionFeature[] = [
  ...MAILING_FEATURES,
  'render-notices',
  'webhooks-worker',
];

/** A sending domain: lower-case DNS labels, at least two (`example.com`, `mail.example.com`). */
const DOMAIN = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The mail-events function: DynamoDB writes only, MB and s. */
export const MAIL_EVENTS_MEMORY_MB = 256;
export const MAIL_EVENTS_TIMEOUT = Duration.seconds(30);

export interface EmailProps {
  /** The verified sending domain (context `mailDomain`), e.g. `example.com`. */
  domain: string;
  /**
   * The sender, `Name <local@domain>` or `local@domain`, on {@link EmailProps.domain} (context
   * `mailFrom`); default `PicSnippets <no-reply@{domain}>`.
   */
  from?: string;
  /** The table of the SuppressedAddress items (functions/lib/db/entities-mail.ts). */
  table: dynamodb.ITable;
}

/**
 * The sender of a domain's mail.
 * @throws Error for a domain that is not a lower-case DNS name, or a sender on another domain
 *   (SES refuses a From address outside the verified identity).
 */
export function mailSender(domain: string, from?: string): string {
  if (!DOMAIN.test(domain)) {
    throw new Error(
      `Context mailDomain "${domain}" must be a lower-case domain, e.g. example.com.`,
    );
  }
  const sender = from ?? `PicSnippets <no-reply@${domain}>`;
  const address = /<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender;
  if (!address.toLowerCase().endsWith(`@${domain}`)) {
    throw new Error(`Context mailFrom "${sender}" must be an address on ${domain}.`);
  }
  return sender;
}

/** The SES identity, its configuration set and bounce handling, and the send grants. */
export class Email extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  /** Where SES publishes bounces and complaints (KMS-encrypted, TLS only). */
  readonly feedbackTopic: sns.Topic;
  /** The mail-events Lambda, subscribed to {@link feedbackTopic}. */
  readonly events: HandlerFunction;
  /** `MAIL_FROM` of every mailing function. */
  readonly sender: string;
  /** The configuration set's ARN (the `ses:SendEmail` grant names it). */
  readonly configurationSetArn: string;

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);
    this.sender = mailSender(props.domain, props.from);
    const stack = Stack.of(this);

    // SES's own suppression list for this set as a second guard, TLS to receiving servers
    // required (the mails carry one-time links), reputation metrics for the SES console.
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    this.configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    // Easy DKIM (2048-bit keys by default): three CNAMEs to publish, output below.
    this.identity = new ses.EmailIdentity(this, 'Identity', {
      identity: ses.Identity.domain(props.domain),
      configurationSet: this.configurationSet,
      dkimSigning: true,
    });

    // SES publishes into an encrypted topic only with a customer key whose policy lets it.
    const key = new kms.Key(this, 'FeedbackTopicKey', {
      description: 'PicSnippets: SES bounce and complaint events',
      enableKeyRotation: true,
    });
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': this.configurationSetArn },
        },
      }),
    );
    this.feedbackTopic = new sns.Topic(this, 'FeedbackTopic', {
      displayName: 'PicSnippets SES bounces and complaints',
      masterKey: key,
      enforceSSL: true,
    });
    // Also grants SES sns:Publish on the topic, for this configuration set and account only.
    this.configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: ses.EventDestination.snsTopic(this.feedbackTopic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });

    this.events = new HandlerFunction(this, 'Events', {
      feature: 'mail-events',
      description: 'PicSnippets: marks addresses SES reports as bounced or complained',
      architecture: lambda.Architecture.ARM_64,
      memorySize: MAIL_EVENTS_MEMORY_MB,
      timeout: MAIL_EVENTS_TIMEOUT,
      externalModules: [],
      layers: [],
      environment: { TABLE_NAME: props.table.tableName },
    });
    // One SuppressedAddress item per address, written whole: PutItem on the table, nothing else.
    this.events.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }),
    );
    this.feedbackTopic.addSubscription(new subscriptions.LambdaSubscription(this.events.fn));

    const dkim: Array<[string, string]> = [
      [this.identity.dkimDnsTokenName1, this.identity.dkimDnsTokenValue1],
      [this.identity.dkimDnsTokenName2, this.identity.dkimDnsTokenValue2],
      [this.identity.dkimDnsTokenName3, this.identity.dkimDnsTokenValue3],
    ];
    dkim.forEach(([name, value], i) => {
      new CfnOutput(this, `DkimRecord${i + 1}`, {
        description: `DKIM CNAME ${i + 1} of 3 for ${props.domain} (docs/infra.md "E-mail")`,
        value: `${name} CNAME ${value}`,
      });
    });
    new CfnOutput(this, 'ConfigurationSetName', {
      value: this.configurationSet.configurationSetName,
    });
  }

  /**
   * Lets one function send: `MAIL_TRANSPORT=ses`, `MAIL_FROM`, `SES_CONFIGURATION_SET`, and
   * `ses:SendEmail` on this identity and this configuration set only (SES authorises a send
   * against both when a configuration set is named; SES developer guide, "Controlling access").
   */
  grantSend(handler: HandlerFunction): void {
    handler.fn.addEnvironment('MAIL_TRANSPORT', 'ses');
    handler.fn.addEnvironment('MAIL_FROM', this.sender);
    handler.fn.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
    handler.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identity.emailIdentityArn, this.configurationSetArn],
      }),
    );
  }
}
