import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { CurrentTeam } from '../../api/designs.ts';
import { Notice } from '../../components/Notice.tsx';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { useUnsavedChangesGuard } from '../../hooks/useUnsavedChangesGuard.ts';
import { providerOf } from '#shared/providers/index.ts';
import type { StoreFront } from './api.ts';
import { CustomDataIntro } from './CustomDataIntro.tsx';
import { ExportPreview } from './ExportPreview.tsx';
import { FormatFieldset, VideoFieldset } from './FormatFields.tsx';
import { ExportOutputsSection, GenerateButton, type GenerateHint } from './GeneratePanel.tsx';
import {
  generateEnabled,
  pdfBlock,
  previewUrl,
  repeatedNames,
  type ExportDesign,
} from './model.ts';
import type { OpenTimeDesign } from './openTime.ts';
import { OpenTimeHints } from './OpenTimeHints.tsx';
import { PlatformFields } from './PlatformFields.tsx';
import { SaveStatus } from './SaveStatus.tsx';
import { SignedUrlsField } from './SignedUrlsField.tsx';
import { PREVIEW_DEBOUNCE_MS, useExportChoices } from './useExportChoices.ts';
import { useExportForm } from './useExportForm.ts';
import { useMergeTags } from './useMergeTags.ts';
import { ValueEditor } from './ValueEditor.tsx';

/**
 * The export screen (docs/export.md "The screen": "Export screen", "Export"; docs/export.md): the
 * preview on the left; on the right the open-time hints (OpenTimeHints.tsx), the platform, the
 * store front (Klaviyo), the value of each parameter and dynamic sticker, image or PDF, HTML width
 * and alignment, the link URL, the Vidalytics options and the embed code, Generate, and the outputs
 * with copy buttons.
 *
 * Its state lives in three hooks: the choices saved as they change (platform, store front,
 * values: `useExportChoices`), the platform's merge tags (`useMergeTags`), and the Generate form
 * (react-hook-form: format, link, embed code, API key, outputs: `useExportForm`).
 */
export function ExportScreen({
  design,
  team,
  storeFronts,
  platformFromTeam = false,
}: {
  design: ExportDesign & OpenTimeDesign;
  team: CurrentTeam | null;
  storeFronts: readonly StoreFront[];
  /** The design was never exported and opens with the team's last platform (model.ts `withTeamPlatform`). */
  platformFromTeam?: boolean;
}) {
  const idBase = useId();
  const choices = useExportChoices(design);
  const [tags, loadTags] = useMergeTags(design);
  const exportForm = useExportForm(design);
  const { form, clearOutputs } = exportForm;
  const [pdf, embedCode] = useWatch({ control: form.control, name: ['pdf', 'embedCode'] });
  const [loadedPreview, setLoadedPreview] = useState<string | null>(null);
  const [signed, setSigned] = useState(design.require_signed_urls);
  const [teamPlatform, setTeamPlatform] = useState(platformFromTeam);
  /** The next merge-tag list follows a platform choice: stickers' values are matched too. */
  const matchStickers = useRef(platformFromTeam);

  const { provider, storefront, rows } = choices;
  const platform = providerOf(provider);
  const block = pdfBlock(provider, team?.can_export_pdf ?? false);
  const repeated = useMemo(() => repeatedNames(rows), [rows]);
  const preview = useDebouncedValue(previewUrl(design, provider, rows), PREVIEW_DEBOUNCE_MS);
  const previewLoaded = loadedPreview === preview;
  const needsEmbed = platform.value === 'wistia' || platform.value === 'vidalytics';
  const enabled =
    !choices.problems && generateEnabled({ provider, rows, previewLoaded, embedCode });
  const hint: GenerateHint = enabled
    ? 'ready'
    : needsEmbed
      ? 'embed'
      : choices.problems
        ? 'problems'
        : !previewLoaded
          ? 'preview'
          : 'values';
  const tagList = tags.state === 'ready' ? tags.list.merge_tags : [];

  // The team's platform, taken by a design never exported, becomes the design's.
  const { keepProvider, matchByName } = choices;
  useEffect(() => {
    if (platformFromTeam) keepProvider();
    // Once, when the screen opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Each list of merge tags fills the empty values whose names match (docs/export.md "The screen").
  useEffect(() => {
    if (tagList.length === 0) return;
    matchByName(tagList, matchStickers.current);
    matchStickers.current = false;
    // Only a new list matches again: a value emptied by hand stays empty.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tagList]);

  // Unsaved: values still in the debounce, held back by a problem, or whose save failed; a
  // link not yet saved; a platform whose save failed. Generate's options are not saved at all.
  useUnsavedChangesGuard(
    choices.unsaved || exportForm.linkUnsaved || choices.providerSave.state === 'failed',
  );

  function choosePlatform(value: string) {
    // docs/export.md "The screen": choosing a platform clears all merge values and script text,
    // then saves it.
    choices.chooseProvider(value);
    setTeamPlatform(false);
    matchStickers.current = true;
    clearOutputs();
    form.resetField('embedCode');
    form.resetField('accessToken');
    const store = value === 'klaviyo' ? storefront : '';
    void loadTags(value, { storeFront: store, openOAuth: value === 'infusionsoft' });
  }

  function chooseStorefront(value: string) {
    choices.chooseStorefront(value);
    const token = form.getValues('accessToken');
    void loadTags(provider, { storeFront: value, ...(token ? { token } : {}) });
  }

  return (
    <div className="export">
      <CustomDataIntro />
      <section className="export__preview stack" aria-labelledby={`${idBase}-preview`}>
        <h2 id={`${idBase}-preview`} className="card__title">
          Preview
        </h2>
        <ExportPreview
          src={preview}
          alt={`${design.title} with these values`}
          width={design.canvas_width}
          height={design.canvas_height}
          onLoaded={setLoadedPreview}
        />
        {design.timer_frames ? (
          <Notice tone="info" title="An animated GIF">
            This PicSnippet has a countdown timer: its URL ends in <code>.gif</code> and answers an
            animated GIF of up to {design.timer_frames} frames, one a second, drawn at every open.
            E-mail clients that do not play GIFs show its first frame.
          </Notice>
        ) : null}
        {/* docs/export.md "Animated designs": e-mail platforms get the .gif, others the still. */}
        {design.animated_gif &&
        !design.timer_frames &&
        !signed &&
        !(pdf && block === null) &&
        platform.source !== 'page' ? (
          <Notice tone="info" title="An animated GIF in e-mail">
            This design plays as an animated GIF in e-mail: its URL ends in <code>.gif</code>.
            Outlook desktop shows its first frame, the design as you saved it.
          </Notice>
        ) : null}
      </section>

      <section className="export__settings stack" aria-labelledby={`${idBase}-settings`}>
        <h2 id={`${idBase}-settings`} className="card__title">
          Export settings
        </h2>
        <OpenTimeHints facts={design.open_time} />

        <PlatformFields
          idBase={idBase}
          designId={design.id}
          platform={platform}
          choices={choices}
          exportForm={exportForm}
          storeFronts={storeFronts}
          tags={tags}
          pdf={pdf && block === null}
          onPlatform={choosePlatform}
          onStorefront={chooseStorefront}
          onLoadFields={(token) => void loadTags(provider, { token, storeFront: storefront })}
          fromTeam={teamPlatform}
        />

        <fieldset className="fieldset stack">
          <legend className="field__label">Values</legend>
          {repeated.size > 0 && (
            <Notice tone="info" title="Repeated parameter names">
              {[...repeated].map((n) => `“${n}”`).join(', ')} {repeated.size === 1 ? 'is' : 'are'}{' '}
              used by more than one text snippet. The URL carries one value per name: the first one
              set fills them all.
            </Notice>
          )}
          {rows.length === 0 && (
            <p className="muted">
              This PicSnippet has no parameters: every recipient sees the same image.
            </p>
          )}
          {rows.map((row) => (
            <ValueEditor
              key={row.key}
              row={row}
              tags={tagList}
              problem={choices.problemOf(row)}
              repeated={repeated.has(row.param_name) && row.parameterId !== null}
              matched={choices.matched.has(row.key)}
              onChange={(value, name) => {
                choices.changeRow(row.key, value, name);
                clearOutputs();
              }}
            />
          ))}
          <SaveStatus save={choices.choicesSave} what="values" />
        </fieldset>

        <FormatFieldset
          idBase={idBase}
          exportForm={exportForm}
          platform={platform}
          block={block}
          team={team}
          needsEmbed={needsEmbed}
        />
        {needsEmbed && (
          <VideoFieldset idBase={idBase} exportForm={exportForm} platform={platform} />
        )}

        <SignedUrlsField
          idBase={idBase}
          designId={design.id}
          required={signed}
          setRequired={(next) => {
            setSigned(next);
            clearOutputs();
          }}
        />

        <GenerateButton
          idBase={idBase}
          hint={hint}
          generating={exportForm.generating}
          error={exportForm.generateError}
          onGenerate={() =>
            exportForm.generate({ provider, rows, pdfAllowed: block === null, signed })
          }
        />

        {exportForm.outputs && (
          <ExportOutputsSection idBase={idBase} outputs={exportForm.outputs} platform={platform} />
        )}
      </section>
    </div>
  );
}
