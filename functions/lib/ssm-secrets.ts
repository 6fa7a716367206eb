/**
 * Secrets from SSM Parameter Store, read once per cold start (docs/infra.md "Deploy": secrets never
 * live in code, env files or logs). In AWS a function gets, for a setting `X` it needs as a secret,
 * the variable `X_PARAMETER` holding the parameter's NAME (infra/constructs/api.ts: the Stripe
 * keys, Keap's OAuth client). Before its first request the chain reads every such parameter with
 * decryption through Powertools Parameters (`SSMProvider.getParametersByName`: batched
 * `GetParameters` calls of up to 10 names, on the AWS SDK's SSMClient) and puts each value into the
 * process environment as `X`, then resets the config so `config()` sees it.
 *
 * These secrets are optional by design: a parameter that does not exist (not created yet)
 * leaves its setting unset, so the feature runs in its offline mode (billing on the free plan,
 * Keap with its built-in fields), and a warning names the parameter (never a value). A failed
 * call (throttling, permissions) fails the request with a 500 and the next request tries again.
 * Outside AWS no `*_PARAMETER` variable is set and nothing is added to the chain.
 */
import { SSMClient, type SSMClientConfig } from '@aws-sdk/client-ssm';
import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';
import type { MiddlewareObj } from '@middy/core';
import { ConfigSchema, resetConfig } from './config.ts';
import { logger } from './logger.ts';
import { traced } from './tracing.ts';

/** The suffix of a variable naming a setting's SSM parameter. */
export const PARAMETER_SUFFIX = '_PARAMETER';
/**
 * The settings to read from SSM: `{ SETTING: '/parameter/name' }` for every known config key
 * whose `{SETTING}_PARAMETER` variable is set and whose own variable is not.
 */
export function ssmSecretParameters(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const known = new Set(Object.keys(ConfigSchema.shape));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.endsWith(PARAMETER_SUFFIX) || !value) continue;
    const setting = name.slice(0, -PARAMETER_SUFFIX.length);
    if (known.has(setting) && !env[setting]) out[setting] = value;
  }
  return out;
}

/** Test seams: the SSM client's options (e.g. a request handler) and the environment. */
export interface SsmSecretsOptions {
  clientConfig?: SSMClientConfig;
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads the parameters and sets the settings (see the module comment).
 * @returns the settings whose parameter does not exist.
 * @throws the SDK's error when SSM fails.
 */
export async function loadSsmSecrets(options: SsmSecretsOptions = {}): Promise<string[]> {
  const env = options.env ?? process.env;
  const wanted = ssmSecretParameters(env);
  const settings = Object.keys(wanted);
  if (settings.length === 0) return [];
  const provider = new SSMProvider({
    awsSdkV3Client: traced(new SSMClient(options.clientConfig ?? {})),
  });
  // A parameter that does not exist is listed in `_errors`; a failed call throws.
  const { _errors: _notFound, ...found } = await provider.getParametersByName<string>(
    Object.fromEntries(settings.map((setting) => [wanted[setting]!, {}])),
    { decrypt: true, throwOnError: false, maxAge: 0 },
  );
  const values = new Map(Object.entries(found as Record<string, string>));
  const missing: string[] = [];
  for (const setting of settings) {
    const value = values.get(wanted[setting]!);
    if (value === undefined) missing.push(setting);
    else env[setting] = value;
  }
  if (missing.length > 0)
    logger.warn('SSM parameters not found; those settings stay unset', {
      parameters: missing.map((s) => wanted[s]),
    });
  resetConfig();
  return missing;
}

/**
 * The chain's middleware that loads the secrets before the first request (once; again after a
 * failure), or none when no parameter is configured.
 */
export function ssmSecrets(options: SsmSecretsOptions = {}): MiddlewareObj[] {
  if (Object.keys(ssmSecretParameters(options.env ?? process.env)).length === 0) return [];
  let loading: Promise<unknown> | null = null;
  return [
    {
      before: async () => {
        loading ??= loadSsmSecrets(options).catch((error: unknown) => {
          loading = null;
          throw error;
        });
        await loading;
      },
    },
  ];
}
