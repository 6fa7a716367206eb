/**
 * Monitoring: the alarms that say the product is failing its users, an SNS topic they notify,
 * and one CloudWatch dashboard (docs/infra.md "Observability").
 *
 * The render URL's promise is an image in every inbox, so the first alarms watch the render
 * service's own metrics (functions/lib/metrics.ts, Embedded Metric Format lines the function
 * writes, namespace `PicSnippets`): the fallback rate and the render time. The rest watch what
 * AWS measures anyway: the API's 5xx, Lambda errors and throttles, DynamoDB errors and
 * throttles, and the product's Stripe webhook failures.
 *
 * Alarm e-mails go to context `alarmEmail` (`cdk deploy -c alarmEmail=ops@example.com`); without
 * it the topic has no subscriber and the alarms show in the console only.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { METRIC, METRICS_NAMESPACE } from '#shared/metrics.ts';

/** The alarms' thresholds (docs/infra.md "Observability" lists them). */
export const ALARM_THRESHOLDS = {
  /** Fallbacks as a share of render answers, %, over each of 5 one-minute periods. */
  renderFallbackPercent: 1,
  /** Render time p99 over 5 minutes, ms. */
  renderP99Ms: 1000,
  /** API answers 5xx in 5 minutes. */
  api5xx: 5,
  /** Lambda errors (all functions of the account) in 5 minutes. */
  lambdaErrors: 10,
  /** Lambda throttles in 5 minutes. */
  lambdaThrottles: 1,
  /** Stripe webhook events that failed in 5 minutes. */
  webhookFailures: 1,
  /** DynamoDB system errors or throttled requests in 5 minutes. */
  dynamodbErrors: 1,
  /**
   * Mails bounced for good or marked as spam in one hour (functions/mail-events). SES reviews an
   * account whose bounce rate passes 5 % or complaint rate 0.1 % (SES developer guide,
   * "Sending review process"); at 20 mails a team a month (infra/cost-model.ts) ten an hour is
   * far past normal typos, so a list or a form is sending to bad addresses.
   */
  mailBounces: 10,
} as const;

export interface MonitoringProps {
  httpApi: apigwv2.HttpApi;
  table: dynamodb.Table;
  /** An e-mail address for the alarms; absent, the topic has no subscriber. */
  alarmEmail?: string;
  /**
   * The stage sends mail through SES (infra/constructs/email.ts): alarm on the "mails bounced"
   * metrics of the mail-events function and show them on the dashboard.
   */
  mailEvents?: boolean;
}

const FIVE_MINUTES = Duration.minutes(5);

/** A product metric (functions/lib/metrics.ts) of one function's `service` dimension. */
const productMetric = (
  service: string,
  metricName: string,
  statistic: string,
  period = FIVE_MINUTES,
) =>
  new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service },
    statistic,
    period,
  });

/** An account-wide Lambda metric (every function of the account and region). */
const lambdaMetric = (metricName: string) =>
  new cloudwatch.Metric({
    namespace: 'AWS/Lambda',
    metricName,
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });

/** The alarms, their topic and the dashboard. */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    // CloudWatch must be able to publish to the encrypted topic: a key of ours that allows it.
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'PicSnippets: alarm notifications',
      enableKeyRotation: true,
    });
    key.grant(
      new iam.ServicePrincipal('cloudwatch.amazonaws.com'),
      'kms:Decrypt',
      'kms:GenerateDataKey*',
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'PicSnippets alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) {
      this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    }

    const minute = Duration.minutes(1);
    const rendered = productMetric('render', METRIC.render, 'Sum', minute);
    const fallbacks = productMetric('render', METRIC.renderFallback, 'Sum', minute);
    const fallbackPercent = new cloudwatch.MathExpression({
      expression: '100 * FILL(f, 0) / (FILL(r, 0) + FILL(f, 0) + 0.000001)',
      usingMetrics: { r: rendered, f: fallbacks },
      label: 'Fallback %',
      period: minute,
    });
    const renderP99 = productMetric('render', METRIC.renderMs, 'p99');
    const webhookFailures = new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: METRIC.stripeWebhook,
      dimensionsMap: { service: 'stripe-webhook', outcome: 'failed' },
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
    const api5xx = props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const operations = [
      dynamodb.Operation.GET_ITEM,
      dynamodb.Operation.PUT_ITEM,
      dynamodb.Operation.UPDATE_ITEM,
      dynamodb.Operation.DELETE_ITEM,
      dynamodb.Operation.QUERY,
      dynamodb.Operation.TRANSACT_WRITE_ITEMS,
    ];
    const dynamoErrors = props.table.metricSystemErrorsForOperations({
      operations,
      period: FIVE_MINUTES,
    });
    const dynamoThrottles = props.table.metric('ThrottledRequests', {
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });

    const alarm = (
      id: string,
      description: string,
      metric: cloudwatch.IMetric,
      threshold: number,
      evaluationPeriods = 1,
    ) => {
      const a = new cloudwatch.Alarm(this, id, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        datapointsToAlarm: evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(new actions.SnsAction(this.topic));
      a.addOkAction(new actions.SnsAction(this.topic));
      this.alarms.push(a);
      return a;
    };
    const t = ALARM_THRESHOLDS;
    alarm(
      'RenderFallbackRate',
      `Render URLs answered the fallback image for over ${t.renderFallbackPercent}% of requests for 5 minutes.`,
      fallbackPercent,
      t.renderFallbackPercent,
      5,
    );
    alarm('RenderP99', `Render time p99 is over ${t.renderP99Ms} ms.`, renderP99, t.renderP99Ms);
    alarm('Api5xx', 'The API answered 5xx.', api5xx, t.api5xx);
    alarm('LambdaErrors', 'Lambda functions failed.', lambdaMetric('Errors'), t.lambdaErrors);
    alarm(
      'LambdaThrottles',
      'Lambda functions were throttled (concurrency).',
      lambdaMetric('Throttles'),
      t.lambdaThrottles,
    );
    alarm(
      'StripeWebhookFailures',
      'Stripe webhook events failed (Stripe retries them).',
      webhookFailures,
      t.webhookFailures,
    );
    alarm('DynamoDbErrors', 'DynamoDB answered system errors.', dynamoErrors, t.dynamodbErrors);
    alarm('DynamoDbThrottles', 'DynamoDB throttled requests.', dynamoThrottles, t.dynamodbErrors);
    const hour = Duration.hours(1);
    const mailsBounced = new cloudwatch.MathExpression({
      expression: 'FILL(b, 0) + FILL(c, 0)',
      usingMetrics: {
        b: new cloudwatch.Metric({
          namespace: METRICS_NAMESPACE,
          metricName: METRIC.mailBounced,
          dimensionsMap: { service: 'mail-events', type: 'permanent' },
          statistic: 'Sum',
          period: hour,
        }),
        c: productMetric('mail-events', METRIC.mailComplained, 'Sum', hour),
      },
      label: 'mails bounced or complained',
      period: hour,
    });
    if (props.mailEvents) {
      alarm(
        'MailsBounced',
        `Mails bounced for good or were marked as spam (${t.mailBounces} or more in an hour); the addresses are suppressed.`,
        mailsBounced,
        t.mailBounces,
      );
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: undefined,
      defaultInterval: Duration.hours(3),
    });
    const byOutcome = (outcome: string) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: METRIC.render,
        dimensionsMap: { service: 'render', outcome },
        statistic: 'Sum',
        period: minute,
        label: outcome,
      });
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }),
      new cloudwatch.GraphWidget({
        title: 'Renders by cache outcome',
        left: ['memory', 'store', 'miss'].map(byOutcome),
        right: [fallbacks],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Fallback % and render p99 (ms)',
        left: [fallbackPercent],
        right: [renderP99, productMetric('render', METRIC.renderMs, 'p50')],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'API 5xx, Lambda errors and throttles',
        left: [api5xx, lambdaMetric('Errors'), lambdaMetric('Throttles')],
        width: 12,
      }),
      new cloudwatch.GraphWidget({
        title: 'Chromium restarts, webhook failures, mails',
        left: [
          productMetric('render', METRIC.chromiumRestart, 'Sum'),
          webhookFailures,
          new cloudwatch.Metric({
            namespace: METRICS_NAMESPACE,
            metricName: METRIC.mail,
            dimensionsMap: { service: 'auth', outcome: 'failed' },
            statistic: 'Sum',
            period: FIVE_MINUTES,
            label: 'mail failed (auth)',
          }),
        ],
        right: [dynamoErrors, dynamoThrottles],
        width: 12,
      }),
    );
    if (props.mailEvents) {
      this.dashboard.addWidgets(
        new cloudwatch.GraphWidget({
          title: 'Mails bounced (permanent) and complaints, per hour',
          left: [mailsBounced],
          width: 12,
        }),
      );
    }
  }
}
