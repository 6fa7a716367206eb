/**
 * The stress preview's samples (docs/editor.mdbeyond the spec): the values a campaign meets that
 * break a design — a recipient with no value (the fallback shows), the longest value the render
 * service takes (255 characters, docs/adr/0004-render-slice.md "Render slice"), emoji,
 * right-to-left Arabic and Hebrew, and Chinese. Each sample is drawn by the real render URL, so
 * overflow, wrapping and font fallback look exactly as they will in the e-mail.
 */
import type { DesignDocument } from '#shared/design.ts';
import { MAX_PARAMETER_LENGTH } from '../../../lib/renderUrl.ts';

/** One sample: every text parameter of the design gets `value`. */
export interface StressSample {
  key: 'empty' | 'longest' | 'emoji' | 'arabic' | 'hebrew' | 'chinese';
  label: string;
  /** What the sample shows the user about their design. */
  description: string;
  value: string;
}

/** A long but plausible value, cut at exactly {@link MAX_PARAMETER_LENGTH} characters. */
const LONGEST = 'Wolfeschlegelsteinhausenbergerdorff Maximiliana-Alexandra '
  .repeat(6)
  .slice(0, MAX_PARAMETER_LENGTH);

export const STRESS_SAMPLES: readonly StressSample[] = [
  {
    key: 'empty',
    label: 'Empty',
    description: 'A recipient without a value: the fallback shows.',
    value: '',
  },
  {
    key: 'longest',
    label: '255 characters',
    description:
      'The longest value the render URL takes: it wraps and shrinks to the minimum size.',
    value: LONGEST,
  },
  { key: 'emoji', label: 'Emoji', description: 'Colour emoji beside text.', value: 'Zoë 🎉🦄👩🏽‍💻' },
  {
    key: 'arabic',
    label: 'Arabic',
    description: 'Right-to-left script.',
    value: 'محمد عبد الرحمن',
  },
  { key: 'hebrew', label: 'Hebrew', description: 'Right-to-left script.', value: 'אברהם כהן' },
  { key: 'chinese', label: 'Chinese', description: 'CJK characters.', value: '王小明，欢迎光临' },
];

/** The design's text parameters, each name once, in snippet order (docs/adr/0014-the-design-document-versions-and-restore.md "The design document: versions and restore" Parameter). */
export function textParameterNames(document: DesignDocument): string[] {
  const names = document.text_snippets.flatMap((s) => s.parameters.map((p) => p.param_name));
  return [...new Set(names)];
}

/**
 * The render path of one sample for the saved version of a design:
 * `/r/{publicId}/v{version}?{name}={value}&…&__preview=1`. The version segment keeps a cached
 * older drawing out; `__preview=1` keeps these renders out of the design's view count (as the
 * dashboard previews). Values are percent-encoded (spaces as `%20`).
 * @param version the design version the server has (the editor's last saved one).
 */
export function stressSamplePath(
  publicId: string,
  version: number,
  names: readonly string[],
  sample: StressSample,
): string {
  const pairs = [
    ...names.map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(sample.value)}`),
    '__preview=1',
  ];
  return `/r/${encodeURIComponent(publicId)}/v${version}?${pairs.join('&')}`;
}
