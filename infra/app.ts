/**
 * The CDK app entry (cdk.json `app`): builds PicSnippetsStack with cdk-nag and synthesises it.
 * `npm run synth` writes cdk.out offline; `npm run deploy` deploys (docs/infra.md).
 */
import { createApp } from './stack.ts';

const { app } = createApp();
app.synth();
