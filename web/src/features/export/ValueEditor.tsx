import { useId } from 'react';
import { FieldError } from '../../components/TextField.tsx';
import { MAX_VALUE_LENGTH } from '#shared/scene/resolve.ts';
import type { ExportRow } from './model.ts';

/** A merge tag offered for a value (`POST /api/merge-tag`). */
export interface MergeTagOption {
  merge_tag_name: string;
  merge_tag_value: string;
}

/** What a dynamic sticker's value must be (docs/export.md "The screen"), for the hint. */
const STICKER_HINT: Record<string, string> = {
  gravatar: 'An e-mail address, or a merge field that holds one.',
  hostedImage: 'An image URL (jpg, jpeg, png, gif, svg or webp), or a merge field.',
  screenShot: 'A web page address (https:// may be left out), or a merge field.',
  qrCode: 'The text or link the QR code holds, or a merge field.',
  countdown:
    'When this evergreen timer starts (an ISO date and time, such as a sign-up time), or a merge field. Empty: from the open.',
};

const STICKER_LABEL: Record<string, string> = {
  gravatar: 'Gravatar',
  hostedImage: 'Hosted image',
  screenShot: 'Screenshot',
  qrCode: 'QR code',
  countdown: 'Countdown timer',
};

/** Option value of the select for a typed value. */
const TYPED = '\u0000typed';

/**
 * The value editor of one parameter (docs/export.md "The screen": "per-parameter value editors"): a
 * select of the platform's merge tags and the value itself, which a chosen tag fills and which may
 * be typed (at most 255 characters, docs/export.md "The screen"). A repeated parameter name is
 * highlighted (docs/export.md "The screen"); a dynamic sticker's value follows its kind's rules
 * (docs/export.md "The screen").
 */
export function ValueEditor({
  row,
  tags,
  problem,
  repeated,
  matched = false,
  onChange,
}: {
  row: ExportRow;
  tags: readonly MergeTagOption[];
  problem: string | null;
  repeated: boolean;
  /** The value was filled by the merge field of the same name (model.ts `tagMatching`). */
  matched?: boolean;
  onChange: (value: string, name: string) => void;
}) {
  const id = useId();
  const chosen = tags.find((t) => t.merge_tag_value === row.merge_tag_value);
  const kind = row.dynamicStickerType;
  // A sticker left empty draws the value set in the editor (its fallback).
  const hint = kind
    ? `${STICKER_HINT[kind] ?? ''}${row.fallback === '' ? '' : ` Left empty: the editor's value, “${row.fallback}”.`}`
    : `Fallback: ${row.fallback === '' ? '(blank)' : `“${row.fallback}”`}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const title = kind ? `${STICKER_LABEL[kind] ?? 'Sticker'} ${row.param_name}` : row.param_name;
  return (
    <fieldset
      className={`export-value${repeated ? ' export-value--repeated' : ''}`}
      data-testid={`value-${row.param_name}`}
    >
      <legend className="export-value__name">
        <code>{title}</code>
        {repeated && <span className="pill export-value__pill">Repeated</span>}
        {matched && <span className="pill export-value__pill">Matched by name</span>}
      </legend>
      <p id={hintId} className="field__hint">
        {hint}
      </p>
      {tags.length > 0 && (
        <div className="field">
          <label htmlFor={`${id}-tag`} className="field__label">
            Merge field for {row.param_name}
          </label>
          <select
            id={`${id}-tag`}
            className="input input--select"
            value={chosen ? chosen.merge_tag_value : row.merge_tag_value === '' ? '' : TYPED}
            onChange={(event) => {
              const value = event.target.value;
              if (value === TYPED) return;
              const tag = tags.find((t) => t.merge_tag_value === value);
              onChange(value, tag?.merge_tag_name ?? '');
            }}
          >
            <option value="">No value (the fallback shows)</option>
            {tags.map((t) => (
              <option key={t.merge_tag_value} value={t.merge_tag_value}>
                {t.merge_tag_name}
              </option>
            ))}
            <option value={TYPED} disabled={row.merge_tag_value === '' || chosen !== undefined}>
              Typed value
            </option>
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-value`} className="field__label">
          Value of {row.param_name}
        </label>
        <input
          id={`${id}-value`}
          className="input input--mono"
          type="text"
          value={row.merge_tag_value}
          spellCheck={false}
          autoComplete="off"
          placeholder={kind ? row.fallback : undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={[hintId, problem ? errorId : ''].filter(Boolean).join(' ')}
          // One more than the limit, so that the rule's message can show (docs/export.md "The
          // screen").
          maxLength={MAX_VALUE_LENGTH + 1}
          onChange={(event) => onChange(event.target.value, '')}
        />
        {problem && <FieldError id={errorId} errors={[problem]} />}
      </div>
    </fieldset>
  );
}
