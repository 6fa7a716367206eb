/**
 * Synthesises PicSnippetsStack in-process the way the infra tests need it: cdk.json's feature
 * flags (so the tests see the template `cdk synth` makes), bundling skipped, and cdk-nag's
 * findings kept in `validation-report.json` instead of aborting synth, so a test can list them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { createApp, type PicSnippetsStack, type PicSnippetsStackProps } from '#infra/stack.ts';
import { PROJECT_ROOT } from '#infra/constructs/handler-function.ts';

export type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** The feature flags `cdk synth` runs with (cdk.json). */
const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

export interface Synthesised {
  stack: PicSnippetsStack;
  template: Template;
  resources: Resources;
  /** The cloud assembly's folder (holds validation-report.json). */
  outdir: string;
  /** Deletes {@link outdir}. */
  remove: () => void;
}

/**
 * Synthesises the app with extra context (`{ mailDomain: 'example.com' }`) on x64 API Lambdas
 * (not whichever sharp binary this machine installed) and no account.
 */
export function synthesise(
  context: Record<string, unknown> = {},
  props: PicSnippetsStackProps = {},
): Synthesised {
  const outdir = mkdtempSync(join(tmpdir(), 'picsnippets-cdk-'));
  const { app, stack } = createApp(
    {
      outdir,
      context: {
        ...CDK_JSON_CONTEXT,
        'aws:cdk:bundling-stacks': [],
        '@aws-cdk/core:failSynthOnValidationErrors': false,
        ...context,
      },
    },
    { apiArch: 'x64', env: { account: undefined }, ...props },
  );
  app.synth();
  const template = Template.fromStack(stack);
  return {
    stack,
    template,
    resources: template.toJSON().Resources as Resources,
    outdir,
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
