import { useId, useState } from 'react';
import { FALLBACK_STACK } from '#shared/scene/fonts.ts';
import { Notice } from '../../../components/Notice.tsx';
import {
  BUILT_IN_FONTS,
  FONT_LOAD_FAILED,
  fontChoice,
  isBuiltInFont,
} from '../document/text-style.ts';

/** Families the editor can draw: the built-in fonts and the fallback stack it ships. */
const knownFamily = (family: string): boolean =>
  isBuiltInFont(family) || (FALLBACK_STACK as readonly string[]).includes(family);

/**
 * Makes a family drawable before the canvas measures with it: resolves once the browser has a
 * face for it (or knows it has none). The font picker's `loadFont` (web/src/features/fonts)
 * takes this place once it is in the editor.
 */
async function loadFamily(family: string): Promise<void> {
  await document.fonts.load(`16px "${family.replace(/["\\]/g, '')}"`);
}

/**
 * The text toolbar's font family (spec 000 §2; §9 built-in fonts, USPS IMB Standard listed but
 * disabled): a family the catalogue does not know shows the default font and the spec 000 §8
 * message. The choice is applied once the font has loaded, so the canvas measures the text with
 * the real face; a font that fails to load says so and changes nothing.
 */
export function FontFamilyField({
  value,
  onChange,
}: {
  value: string;
  /** Called with the chosen family after it loaded. */
  onChange: (family: string) => void;
}) {
  const id = useId();
  const [loading, setLoading] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const choice = fontChoice(value, knownFamily);
  const options = isBuiltInFont(choice.family)
    ? BUILT_IN_FONTS
    : [{ family: choice.family, disabled: false }, ...BUILT_IN_FONTS];
  return (
    <div className="field text-toolbar__font">
      <label htmlFor={id} className="field__label">
        Font
      </label>
      <select
        id={id}
        className="input"
        value={loading ?? choice.family}
        aria-busy={loading !== null}
        onChange={(event) => {
          const family = event.target.value;
          setLoading(family);
          setFailed(false);
          loadFamily(family)
            .then(() => onChange(family))
            .catch((error: unknown) => {
              console.error(`The font ${family} could not be loaded`, error);
              setFailed(true);
            })
            .finally(() => setLoading(null));
        }}
      >
        {options.map((font) => (
          <option key={font.family} value={font.family} disabled={font.disabled}>
            {font.family}
            {font.disabled ? ' (unavailable)' : ''}
          </option>
        ))}
      </select>
      {(choice.fellBack || failed) && <Notice tone="error">{FONT_LOAD_FAILED}</Notice>}
    </div>
  );
}
