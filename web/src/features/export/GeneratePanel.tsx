import { useEffect, useRef } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import type { Provider } from '#shared/providers/index.ts';
import { CopyBlock } from './CopyBlock.tsx';
import type { ExportOutputs } from './model.ts';

/** Why Generate waits, or what it does (the button's description). */
export type GenerateHint = 'ready' | 'embed' | 'problems' | 'preview' | 'values';

const HINTS: Record<GenerateHint, string> = {
  ready: 'Generate the HTML, the direct link and the script for this platform.',
  embed: 'Paste the video embed code first.',
  problems: 'Fix the values marked above first.',
  preview: 'Waiting for the preview…',
  values: 'Give every parameter a value first.',
};

/**
 * The Generate button, stays focusable and says why it waits (`aria-disabled` and its hint),
 * and what went wrong when the cache id could not be had.
 */
export function GenerateButton({
  idBase,
  hint,
  generating,
  error,
  onGenerate,
}: {
  idBase: string;
  hint: GenerateHint;
  generating: boolean;
  error: string | null;
  onGenerate: () => void;
}) {
  const enabled = hint === 'ready';
  return (
    <div className="stack">
      <button
        type="button"
        className="button"
        aria-disabled={!enabled || generating}
        aria-describedby={`${idBase}-generate-hint`}
        onClick={() => {
          if (enabled && !generating) onGenerate();
        }}
      >
        {generating && <Spinner />} Generate
      </button>
      {error && (
        <Notice tone="error" title="Generate">
          {error}
        </Notice>
      )}
      <p id={`${idBase}-generate-hint`} className="field__hint">
        {HINTS[hint]}
      </p>
    </div>
  );
}

/** Generate's outputs with their copy buttons; the heading takes focus when they appear. */
export function ExportOutputsSection({
  idBase,
  outputs,
  platform,
}: {
  idBase: string;
  outputs: ExportOutputs;
  platform: Provider;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [outputs]);
  return (
    <section className="export__outputs stack" aria-labelledby={`${idBase}-outputs`}>
      <h3 id={`${idBase}-outputs`} ref={headingRef} tabIndex={-1} className="card__title">
        Ready to paste into {platform.label}
      </h3>
      {outputs.html && (
        <CopyBlock label="HTML" value={outputs.html} rows={5} testId="export-html" />
      )}
      {outputs.denseWidth !== null && (
        <p className="field__hint">
          {outputs.html
            ? `The HTML loads the image at twice its size, for sharp text on phones and high-density screens, with width="${outputs.denseWidth}" so it keeps its usual size. The direct link is the 1× image.`
            : 'The script uses the image at twice its size, for sharp text on high-density screens.'}
        </p>
      )}
      <CopyBlock label="Direct link" value={outputs.link} opens testId="export-link" />
      {outputs.ruleLink && (
        <>
          <CopyBlock
            label="Click-through link"
            value={outputs.ruleLink}
            opens
            testId="export-rule-link"
          />
          <p className="field__hint">
            Link the image to this URL: it goes where the rule the image shows says (the
            design&rsquo;s link when no rule matches).
          </p>
        </>
      )}
      {outputs.script && (
        <CopyBlock label="Script" value={outputs.script} rows={6} testId="export-script" />
      )}
    </section>
  );
}
