/**
 * Structured JSON logs with a request id (docs/infra.md "Observability"), through AWS Lambda
 * Powertools' logger. Never log secrets, cookies, tokens or bodies: log what a request was and how
 * it ended.
 */
import { Logger } from '@aws-lambda-powertools/logger';

const level = (
  process.env.LOG_LEVEL ?? (process.env.STAGE === 'test' ? 'ERROR' : 'INFO')
).toUpperCase() as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** One logger per process; `serviceName` is the feature where known. */
export const logger = new Logger({
  serviceName: process.env.FEATURE ?? 'picsnippets',
  logLevel: level,
});
