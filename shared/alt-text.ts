/**
 * Alt text per recipient (docs/export.md "Alt text"): a design's alt-text template holds merge
 * fields as its texts do (`Hello {{first_name}}, 20% off`), and the export screen writes it into
 * the platform's snippet in that platform's merge-tag syntax, so a screen reader says what the
 * recipient's image says. Pure: used by the editor (the text a recipient without values hears)
 * and the export screen. Tests: test/unit/alt-text.test.ts.
 */
import { MAX_ALT_TEXT_LENGTH } from './design.ts';
import { providerOf } from './providers/index.ts';

export { MAX_ALT_TEXT_LENGTH };

/** A `{{name}}` merge field of a template: the name as text snippets write it, trimmed. */
const FIELD = /\{\{([^{}]{1,255})\}\}/g;

/** What the alt text reads of a design. */
export interface AltTextDesign {
  /** The design's own template; null or blank: the texts joined. */
  alt_text?: string | null;
  text_snippets: ReadonlyArray<{ text: string }>;
}

/** Whitespace made one space, trimmed. */
const tidy = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * The design's alt-text template: its own, else its text snippets' texts in order, each tidied,
 * joined with ` · `, cut at {@link MAX_ALT_TEXT_LENGTH}. Empty for a design without either.
 */
export function altTemplate(design: AltTextDesign): string {
  const own = tidy(design.alt_text ?? '');
  if (own !== '') return own.slice(0, MAX_ALT_TEXT_LENGTH);
  return design.text_snippets
    .map((s) => tidy(s.text))
    .filter((t) => t !== '')
    .join(' · ')
    .slice(0, MAX_ALT_TEXT_LENGTH);
}

/**
 * A template with each `{{name}}` replaced by `valueOf(name)`.
 * @param valueOf the text a field becomes; a name it does not know gives ''.
 */
export function fillAltText(template: string, valueOf: (name: string) => string): string {
  return tidy(template.replace(FIELD, (_m, name: string) => valueOf(name.trim())));
}

/**
 * The alt text a recipient hears with `values`, each missing or blank value replaced by its
 * parameter's fallback (a blank fallback: nothing), as the render draws it.
 */
export function resolveAltText(
  template: string,
  values: Readonly<Record<string, string>>,
  fallbacks: Readonly<Record<string, string>>,
): string {
  return fillAltText(template, (name) => {
    const value = (Object.hasOwn(values, name) ? values[name] : '') ?? '';
    return tidy(value) !== ''
      ? value
      : (Object.hasOwn(fallbacks, name) ? fallbacks[name]! : '').trim();
  });
}

/** One parameter as the export screen holds it: its chosen merge tag or typed text, and fallback. */
export interface AltTextParameter {
  param_name: string;
  /** The platform's merge tag, typed text, or '' for none. */
  merge_tag_value: string;
  /** What a recipient without a value sees. */
  fallback: string;
}

/**
 * The alt text the export writes for a platform (docs/export.md "Alt text"): each `{{name}}`
 * becomes
 * - on an e-mail platform, the platform's merge tag of the field chosen for that parameter, with
 *   the parameter's fallback where the platform's syntax has one (a fallback holding a quote is
 *   left out of the tag: it could not be written in it), else the fallback itself when no tag is
 *   chosen, or the typed text;
 * - on a web page or video player (whose values are in the page's address, not in a merge
 *   tag), the typed text or the fallback: what a visitor without values sees.
 * The result is not HTML-escaped: the snippet builders escape the attribute.
 * @param provider the design's `merge_tag_provider` (null: Custom).
 */
export function exportAltText(
  template: string,
  provider: string | null,
  parameters: readonly AltTextParameter[],
): string {
  const platform = providerOf(provider);
  const byName = new Map<string, AltTextParameter>();
  for (const p of parameters) if (!byName.has(p.param_name)) byName.set(p.param_name, p);
  return fillAltText(template, (name) => {
    const p = byName.get(name);
    if (!p) return '';
    const chosen = p.merge_tag_value.trim();
    const fallback = p.fallback.trim();
    if (chosen === '') return fallback;
    const tag = platform.source === 'merge-tag' ? platform.parseTag(chosen) : undefined;
    if (!tag) return platform.source === 'page' ? fallback : chosen;
    try {
      return platform.mergeTag(tag.field, fallback);
    } catch {
      return platform.mergeTag(tag.field);
    }
  });
}
