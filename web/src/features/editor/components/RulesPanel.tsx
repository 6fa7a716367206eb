import { useId, useState, type ReactNode } from 'react';
import type { DesignDocument, Sticker, TextSnippet } from '#shared/design.ts';
import {
  RULE_DEVICES,
  RULE_MAIL_CLIENTS,
  RULE_SYSTEMS,
  applyRuleVariant,
  type Rule,
  type RuleCondition,
  type RuleConditionKind,
  type RuleVariant,
} from '#shared/scene/rules.ts';
import { isApiError } from '../../../api/client.ts';
import { Modal } from '../../../components/Modal.tsx';
import { StillImage } from '../../../components/StillImage.tsx';
import { useEditor, useEditorContext } from '../EditorContext.tsx';
import { runCommand } from '../commands.ts';
import { RulesError } from '../commands/rules.ts';
import { baseImageUrlOf } from '../document/image.ts';
import { stickerImageUrl } from '../document/preview.ts';
import { baseImageOf, type LibraryImage } from '../imagesApi.ts';
import { ImagesPanel } from './ImagesPanel.tsx';
import { Choices } from './Choices.tsx';
import { DraftField } from './DraftField.tsx';
import { WeatherCondition } from './WeatherCondition.tsx';
import { RulePreview } from './RulePreview.tsx';
import { SplitOptimiserSection } from './SplitOptimiserSection.tsx';
import '../rules.css';

/** What each condition kind is called in the panel (docs/rules.md "Conditions"). */
const KIND_LABELS: Record<RuleConditionKind, string> = {
  country: 'Country',
  device: 'Device',
  os: 'Operating system',
  mail_client: 'E-mail client',
  parameter: 'Parameter value',
  time_window: 'Date and time',
  day_of_week: 'Day of week',
  split: 'Random split',
  weather: 'Weather',
};
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const OPERATORS = {
  equals: 'equals',
  contains: 'contains',
  empty: 'is empty',
  not_empty: 'is set',
};

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const today = () => new Date().toISOString().slice(0, 10);

/** A new condition of a kind, with values a person then changes. */
function newCondition(kind: RuleConditionKind, params: string[]): RuleCondition {
  switch (kind) {
    case 'time_window':
      return { kind, start: `${today()}T00:00`, end: null, time_zone: browserZone() };
    case 'day_of_week':
      return { kind, days: [1, 2, 3, 4, 5], time_zone: browserZone() };
    case 'device':
      return { kind, devices: ['mobile'] };
    case 'os':
      return { kind, systems: ['ios'] };
    case 'country':
      return { kind, countries: ['US'] };
    case 'mail_client':
      return { kind, clients: ['gmail'] };
    case 'parameter':
      return { kind, param_name: params[0] ?? 'name', operator: 'equals', value: '' };
    case 'split':
      return { kind, from: 0, to: 50 };
    case 'weather':
      return { kind, param_name: '', skies: ['rain'], min_temp_c: null, max_temp_c: null };
  }
}

/** The fields of one condition; `set` applies a changed copy and returns the problem. */
function ConditionFields({
  condition,
  params,
  set,
  optimised,
}: {
  condition: RuleCondition;
  params: string[];
  set: (next: RuleCondition) => string | null;
  /** "Optimise for clicks" is on: a split's range is set by the optimiser. */
  optimised: boolean;
}): ReactNode {
  const zone = (c: { time_zone: string }) => (
    <DraftField
      label="Time zone"
      hint="An IANA name, such as Europe/Paris."
      value={c.time_zone}
      onCommit={(time_zone) => set({ ...condition, time_zone } as RuleCondition)}
    />
  );
  switch (condition.kind) {
    case 'country':
      return (
        <DraftField
          label="Countries"
          hint="Two-letter codes, separated by commas (FR, BE)."
          value={condition.countries.join(', ')}
          onCommit={(text) =>
            set({ ...condition, countries: text.split(/[\s,]+/).filter(Boolean) })
          }
        />
      );
    case 'device':
      return (
        <Choices
          legend="Devices"
          options={RULE_DEVICES}
          chosen={condition.devices}
          onChange={(devices) => set({ ...condition, devices })}
        />
      );
    case 'os':
      return (
        <Choices
          legend="Systems"
          options={RULE_SYSTEMS}
          chosen={condition.systems}
          onChange={(systems) => set({ ...condition, systems })}
        />
      );
    case 'mail_client':
      return (
        <Choices
          legend="E-mail clients"
          options={RULE_MAIL_CLIENTS}
          chosen={condition.clients}
          onChange={(clients) => set({ ...condition, clients })}
        />
      );
    case 'day_of_week':
      return (
        <>
          <Choices
            legend="Days"
            options={[0, 1, 2, 3, 4, 5, 6]}
            labels={(d) => DAYS[d]!}
            chosen={condition.days}
            onChange={(days) => set({ ...condition, days: days.sort() })}
          />
          {zone(condition)}
        </>
      );
    case 'time_window':
      return (
        <>
          <DraftField
            label="From"
            type="datetime-local"
            value={condition.start ?? ''}
            onCommit={(start) => set({ ...condition, start: start || null })}
          />
          <DraftField
            label="Until"
            type="datetime-local"
            value={condition.end ?? ''}
            onCommit={(end) => set({ ...condition, end: end || null })}
          />
          {zone(condition)}
        </>
      );
    case 'parameter':
      return <ParameterCondition condition={condition} params={params} set={set} />;
    case 'weather':
      return <WeatherCondition condition={condition} params={params} set={set} />;
    case 'split':
      if (optimised)
        return (
          <p className="field__hint">
            Share set by &ldquo;Optimise for clicks&rdquo;: it follows this rule&apos;s clicks.
          </p>
        );
      return (
        <>
          <DraftField
            label="From %"
            type="number"
            value={String(condition.from)}
            onCommit={(from) => set({ ...condition, from: Number(from) })}
          />
          <DraftField
            label="To %"
            type="number"
            hint="Recipients whose bucket (0–99) is from this range match; the image and the link agree."
            value={String(condition.to)}
            onCommit={(to) => set({ ...condition, to: Number(to) })}
          />
        </>
      );
  }
}

function ParameterCondition({
  condition,
  params,
  set,
}: {
  condition: Extract<RuleCondition, { kind: 'parameter' }>;
  params: string[];
  set: (next: RuleCondition) => string | null;
}) {
  const id = useId();
  const names = params.includes(condition.param_name) ? params : [condition.param_name, ...params];
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-name`} className="field__label">
          Parameter
        </label>
        <select
          id={`${id}-name`}
          className="input"
          value={condition.param_name}
          onChange={(e) => set({ ...condition, param_name: e.target.value })}
        >
          {names.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-op`} className="field__label">
          Test
        </label>
        <select
          id={`${id}-op`}
          className="input"
          value={condition.operator}
          onChange={(e) =>
            set({ ...condition, operator: e.target.value as typeof condition.operator })
          }
        >
          {Object.entries(OPERATORS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {(condition.operator === 'equals' || condition.operator === 'contains') && (
        <DraftField
          label="Value"
          value={condition.value}
          onCommit={(value) => set({ ...condition, value })}
        />
      )}
    </>
  );
}

/** What each dynamic sticker kind is called beside its number. */
const DYNAMIC_KINDS: Record<NonNullable<Sticker['dynamicStickerType']>, string> = {
  qrCode: 'QR code',
  hostedImage: 'image from a URL',
  screenShot: 'screenshot',
  gravatar: 'Gravatar',
  countdown: 'countdown',
  poll: 'poll',
  weather: 'weather',
};

/** A sticker as the panel names it: a small picture, "Sticker N" and its dynamic kind. */
function StickerName({ stickers, uuid }: { stickers: readonly Sticker[]; uuid: string }) {
  const index = stickers.findIndex((s) => s.uuid === uuid);
  const sticker = stickers[index];
  const src = sticker ? stickerImageUrl(sticker) : null;
  const kind = sticker?.dynamicStickerType ? ` (${DYNAMIC_KINDS[sticker.dynamicStickerType]})` : '';
  return (
    <>
      {src && <StillImage className="rules-panel__thumb" src={src} alt="" />}
      Sticker {index + 1}
      {kind}
    </>
  );
}

/**
 * A variant whose sticker lists make exactly `shown` visible (docs/rules.md "Variants"): a
 * sticker hidden by default that it shows goes in `show_stickers`, one shown by default that it
 * hides in `hide_stickers`; uuids of stickers the design no longer has are dropped.
 */
function withShownStickers(
  variant: RuleVariant,
  design: DesignDocument,
  shown: ReadonlySet<string>,
): RuleVariant {
  const hidden = new Set(design.hidden_stickers);
  const uuids = design.graphics_data.map((s) => s.uuid);
  return {
    ...variant,
    show_stickers: uuids.filter((u) => shown.has(u) && hidden.has(u)),
    hide_stickers: uuids.filter((u) => !shown.has(u) && !hidden.has(u)),
  };
}

/** The variant base photo of an image from the picker (its key as the save resolves it). */
function variantPhoto(image: LibraryImage): RuleVariant['base_image'] {
  const ref = baseImageOf(image);
  return {
    image_id: ref.id,
    base_image_key: ref.key,
    image_width: ref.width > 0 ? Math.round(ref.width) : null,
    image_height: ref.height > 0 ? Math.round(ref.height) : null,
  };
}

/**
 * A rule's base photo: the design's own (none set) or another one chosen from the team's images
 * with the Images panel as a picker; clearing it goes back to the design's. One undoable step
 * each; the save resolves the image as the team may use it (docs/rules.md "Variants").
 */
function RulePhoto({
  rule,
  title,
  apply,
}: {
  rule: Rule;
  title: string;
  apply: (next: Rule) => string | null;
}) {
  const id = useId();
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const photo = rule.variant.base_image;
  const src = photo && baseImageUrlOf(photo.base_image_key);
  const setPhoto = (base_image: RuleVariant['base_image']) =>
    setError(apply({ ...rule, variant: { ...rule.variant, base_image } }));
  const choose = (image: LibraryImage) => {
    setPicking(false);
    try {
      setPhoto(variantPhoto(image));
    } catch (e) {
      setError(isApiError(e) ? e.message : 'This image cannot be used.');
    }
  };
  return (
    <div className="rules-panel__photo stack" role="group" aria-labelledby={id}>
      <span id={id} className="field__label">
        Base photo
      </span>
      {photo ? (
        src && (
          <StillImage
            className="rules-panel__photo-thumb"
            src={src}
            alt={`What ${title} shows behind its texts`}
          />
        )
      ) : (
        <p className="field__hint">As designed: the design&apos;s own photo.</p>
      )}
      <div className="rules-panel__actions">
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => setPicking(true)}
        >
          {photo ? 'Change base photo' : 'Choose base photo'}
          <span className="visually-hidden"> of {title}</span>
        </button>
        {photo && (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => setPhoto(null)}
          >
            Use the design&apos;s photo<span className="visually-hidden"> for {title}</span>
          </button>
        )}
      </div>
      {error && (
        <p className="field__error" role="alert">
          ! {error}
        </p>
      )}
      <Modal
        open={picking}
        wide
        title={`Base photo of ${title}`}
        onCancel={() => setPicking(false)}
        actions={
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setPicking(false)}
          >
            Cancel
          </button>
        }
      >
        <ImagesPanel onChoose={choose} chosenId={photo?.image_id ?? null} />
      </Modal>
    </div>
  );
}

/** One rule: name, conditions, what it shows, its link, and its place in the order. */
function RuleCard({
  rule,
  index,
  count,
  params,
  snippets,
  design,
  apply,
}: {
  rule: Rule;
  index: number;
  count: number;
  params: string[];
  snippets: TextSnippet[];
  /** The current document: its stickers and `hidden_stickers`. */
  design: DesignDocument;
  /** Applies a changed rule (null removes it, a number moves it by that); returns the problem. */
  apply: (next: Rule | null, move?: number) => string | null;
}) {
  const headingId = useId();
  const [kind, setKind] = useState<RuleConditionKind>('country');
  const title = rule.name || `Rule ${index + 1}`;
  const stickers = design.graphics_data;
  // What this rule shows, as the render works it out.
  const shown = applyRuleVariant(design, rule).graphics_data.map((s) => s.uuid);
  const setCondition = (i: number, next: RuleCondition | null) =>
    apply({
      ...rule,
      conditions: next
        ? rule.conditions.map((c, j) => (j === i ? next : c))
        : rule.conditions.filter((_, j) => j !== i),
    });
  return (
    <li className="rules-panel__rule card stack" aria-labelledby={headingId}>
      <h3 id={headingId} className="card__title">
        {index + 1}. {title}
      </h3>
      <DraftField label="Name" value={rule.name} onCommit={(name) => apply({ ...rule, name })} />
      <p className="field__hint">
        {rule.conditions.length === 0
          ? 'No conditions: this rule always matches.'
          : 'Matches when every condition holds.'}
      </p>
      <ol className="rules-panel__conditions stack">
        {rule.conditions.map((condition, i) => (
          <li key={i} className="stack">
            <strong>{KIND_LABELS[condition.kind]}</strong>
            <ConditionFields
              condition={condition}
              params={params}
              set={(next) => setCondition(i, next)}
              optimised={design.split_optimiser !== null}
            />
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => setCondition(i, null)}
            >
              Remove condition: {KIND_LABELS[condition.kind]}
            </button>
          </li>
        ))}
      </ol>
      <div className="rules-panel__add">
        <label htmlFor={`${headingId}-kind`} className="field__label">
          New condition
        </label>
        <select
          id={`${headingId}-kind`}
          className="input"
          value={kind}
          onChange={(e) => setKind(e.target.value as RuleConditionKind)}
        >
          {Object.entries(KIND_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() =>
            apply({ ...rule, conditions: [...rule.conditions, newCondition(kind, params)] })
          }
        >
          Add condition
        </button>
      </div>
      {snippets.map((snippet, i) => (
        <DraftField
          key={snippet.id}
          label={`Text ${i + 1} (empty: as designed)`}
          hint={`As designed: ${snippet.text}`}
          value={rule.variant.texts[snippet.id] ?? ''}
          onCommit={(text) => {
            const texts = { ...rule.variant.texts };
            if (text === '') delete texts[snippet.id];
            else texts[snippet.id] = text;
            return apply({ ...rule, variant: { ...rule.variant, texts } });
          }}
        />
      ))}
      <RulePhoto rule={rule} title={title} apply={apply} />
      {stickers.length > 0 && (
        <Choices
          legend={`Stickers ${title} shows`}
          options={stickers.map((s) => s.uuid)}
          labels={(uuid) => <StickerName stickers={stickers} uuid={uuid} />}
          chosen={shown}
          onChange={(next) =>
            apply({
              ...rule,
              variant: withShownStickers(rule.variant, design, new Set(next)),
            })
          }
        />
      )}
      <DraftField
        label="Click-through link"
        type="url"
        hint="Where a click goes when this rule shows (empty: the design's link)."
        value={rule.link_url ?? ''}
        onCommit={(url) => apply({ ...rule, link_url: url.trim() || null })}
      />
      <div className="rules-panel__actions" role="group" aria-label={`Order of ${title}`}>
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={index === 0}
          onClick={() => apply(rule, -1)}
        >
          Move up
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          disabled={index === count - 1}
          onClick={() => apply(rule, 1)}
        >
          Move down
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => apply(null)}
        >
          Delete {title}
        </button>
      </div>
    </li>
  );
}

/**
 * The rules panel (docs/rules.md "Editor"): the design's ordered rules, first match wins, each
 * with its conditions, what it shows (texts, base photo, stickers) and its click-through link,
 * and the stickers hidden unless a rule shows them; every change is one undoable command
 * (`setRules`, `setHiddenStickers`), checked by the shared schema first. The preview draws the
 * current document, saved or not, as a picked rule shows it (docs/rules.md "Preview").
 */
export function RulesPanel() {
  const { store } = useEditorContext();
  const design = useEditor((s) => s.design);
  const rules = design?.rules ?? [];
  const snippets = design?.text_snippets ?? [];
  const stickers = design?.graphics_data ?? [];
  const [pick, setPick] = useState('default');
  const [problem, setProblem] = useState<string | null>(null);
  const previewId = useId();
  const params = [...new Set(snippets.flatMap((s) => s.parameters.map((p) => p.param_name)))];

  /** Applies a whole new rule list; returns the problem, or null. */
  const change = (next: Rule[]): string | null => {
    try {
      runCommand(store, 'setRules', { rules: next });
      setProblem(null);
      return null;
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      setProblem(error.message);
      return error.message;
    }
  };
  const applyAt =
    (index: number) =>
    (next: Rule | null, move = 0): string | null => {
      if (next === null) return change(rules.filter((_, i) => i !== index));
      const list = rules.map((r, i) => (i === index ? next : r));
      if (move !== 0) {
        const [moved] = list.splice(index, 1);
        list.splice(index + move, 0, moved!);
      }
      return change(list);
    };
  const addRule = () =>
    change([
      ...rules,
      {
        id: `rule-${crypto.randomUUID().slice(0, 8)}`,
        name: '',
        conditions: [],
        variant: { texts: {}, base_image: null, show_stickers: [], hide_stickers: [] },
        link_url: null,
      },
    ]);
  const setHidden = (uuids: string[]) => {
    try {
      runCommand(store, 'setHiddenStickers', { uuids });
      setProblem(null);
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      setProblem(error.message);
    }
  };
  const picked = rules.find((r) => r.id === pick);
  const pickedName = picked ? picked.name || `Rule ${rules.indexOf(picked) + 1}` : null;
  if (!design) return null;

  return (
    <div className="rules-panel stack">
      <p className="field__hint">
        The first rule whose conditions hold decides what the image shows and where a click goes;
        when none holds, the design shows as drawn.
      </p>
      {rules.length > 0 && (
        <section className="stack" aria-labelledby={`${previewId}-title`}>
          <h3 id={`${previewId}-title`} className="card__title">
            Preview
          </h3>
          <label htmlFor={previewId} className="field__label">
            Show the design as
          </label>
          <select
            id={previewId}
            className="input"
            value={picked ? pick : 'default'}
            onChange={(e) => setPick(e.target.value)}
          >
            <option value="default">No rule matches (default)</option>
            {rules.map((r, i) => (
              <option key={r.id} value={r.id}>
                {r.name || `Rule ${i + 1}`}
              </option>
            ))}
          </select>
          <RulePreview
            rule={picked}
            label={
              pickedName
                ? `The design as ${pickedName} shows it, unsaved changes included`
                : 'The design as it shows when no rule matches, unsaved changes included'
            }
          />
        </section>
      )}
      {stickers.length > 0 && (
        <Choices
          legend="Stickers hidden unless a rule shows them"
          options={stickers.map((s) => s.uuid)}
          labels={(uuid) => <StickerName stickers={stickers} uuid={uuid} />}
          chosen={design.hidden_stickers}
          onChange={setHidden}
        />
      )}
      <SplitOptimiserSection design={design} />
      {rules.length === 0 ? (
        <p>No rules yet: every recipient sees the design as drawn.</p>
      ) : (
        <ol className="rules-panel__list stack">
          {rules.map((rule, i) => (
            <RuleCard
              key={rule.id}
              rule={rule}
              index={i}
              count={rules.length}
              params={params}
              snippets={snippets}
              design={design}
              apply={applyAt(i)}
            />
          ))}
        </ol>
      )}
      {problem && (
        <p className="field__error" role="alert">
          ! {problem}
        </p>
      )}
      <button type="button" className="button" onClick={addRule}>
        Add rule
      </button>
    </div>
  );
}
