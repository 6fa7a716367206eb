import { Link } from 'react-router-dom';
import { useController } from 'react-hook-form';
import type { CurrentTeam } from '../../api/designs.ts';
import { FieldError } from '../../components/TextField.tsx';
import { Notice } from '../../components/Notice.tsx';
import type { Provider } from '#shared/providers/index.ts';
import { PRO_ONLY_MESSAGE } from '../dashboard/DesignViewer.tsx';
import { subscriptionPath } from '../../hooks/useCurrentTeam.ts';
import type { PdfBlock } from './model.ts';
import { SaveStatus } from './SaveStatus.tsx';
import type { ExportFormState } from './useExportForm.ts';

/**
 * The export screen's "Format" fieldset (docs/export.md "The screen", docs/adr/0023-team-roles.md
 * "Team roles"): image or PDF (PDF only where the plan and platform allow it, with the reason when
 * not), and for HTML outputs the width, the alignment and the link URL (saved when the field is
 * left). A change drops the outputs.
 */
export function FormatFieldset({
  idBase,
  exportForm,
  platform,
  block,
  team,
  needsEmbed,
}: {
  idBase: string;
  exportForm: ExportFormState;
  platform: Provider;
  block: PdfBlock;
  team: CurrentTeam | null;
  /** The platform takes a script, not HTML: no width, alignment or link. */
  needsEmbed: boolean;
}) {
  const { control } = exportForm.form;
  const edited = { onChange: exportForm.clearOutputs };
  const { ref: _pdfRef, ...pdf } = useController({ control, name: 'pdf' }).field;
  const { ref: formatRef, ...imageFormat } = useController({
    control,
    name: 'imageFormat',
    rules: edited,
  }).field;
  const { ref: widthRef, ...width } = useController({
    control,
    name: 'width',
    rules: { ...edited, onBlur: exportForm.commitWidth },
  }).field;
  const { ref: alignRef, ...align } = useController({
    control,
    name: 'align',
    rules: edited,
  }).field;
  const {
    field: { ref: linkRef, ...link },
    fieldState: { error: linkProblem },
  } = useController({ control, name: 'link', rules: { ...edited, onBlur: exportForm.commitLink } });
  const linkError = linkProblem?.message;

  return (
    <fieldset className="fieldset stack">
      <legend className="field__label">Format</legend>
      <div className="toggle" role="group" aria-label="Image or PDF">
        {(['image', 'pdf'] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            className="toggle__option"
            aria-pressed={(mode === 'pdf') === pdf.value}
            aria-disabled={mode === 'pdf' && block !== null ? true : undefined}
            aria-describedby={mode === 'pdf' && block ? `${idBase}-pdf-hint` : undefined}
            onClick={() => {
              if (mode === 'pdf' && block !== null) return;
              pdf.onChange(mode === 'pdf');
              exportForm.clearOutputs();
            }}
          >
            {mode === 'image' ? 'Image' : 'PDF'}
          </button>
        ))}
      </div>
      {block === 'plan' && (
        <div id={`${idBase}-pdf-hint`}>
          <Notice tone="info" title="PDF">
            {PRO_ONLY_MESSAGE} {team && <Link to={subscriptionPath(team.id)}>Upgrade</Link>}
          </Notice>
        </div>
      )}
      {block === 'provider' && (
        <p id={`${idBase}-pdf-hint`} className="field__hint">
          {platform.label} shows an image: PDF is not available for web pages and video players.
        </p>
      )}
      {pdf.value && block === null && (
        <p className="field__hint">With PDF on, Website, Wistia and Vidalytics are not offered.</p>
      )}
      {platform.source === 'page' && !pdf.value && (
        <div className="field">
          <label htmlFor={`${idBase}-image-format`} className="field__label">
            Image format
          </label>
          <p id={`${idBase}-image-format-hint`} className="field__hint">
            For web pages and video players: WebP and AVIF are a fraction of the JPEG&apos;s bytes
            (AVIF: browsers from 2022 on). E-mail always gets JPEG.
          </p>
          <select
            ref={formatRef}
            id={`${idBase}-image-format`}
            className="input input--select"
            aria-describedby={`${idBase}-image-format-hint`}
            value={imageFormat.value}
            onChange={(event) => imageFormat.onChange(event.target.value)}
            onBlur={imageFormat.onBlur}
          >
            <option value="jpeg">JPEG</option>
            <option value="webp">WebP</option>
            <option value="avif">AVIF</option>
          </select>
        </div>
      )}
      {needsEmbed ? (
        <p className="field__hint">
          {platform.label} gets a script, not HTML: the HTML width, alignment and link do not apply.
        </p>
      ) : (
        <>
          <div className="export__row">
            <div className="field">
              <label htmlFor={`${idBase}-width`} className="field__label">
                HTML width (%)
              </label>
              <input
                ref={widthRef}
                id={`${idBase}-width`}
                className="input"
                type="number"
                inputMode="numeric"
                min={1}
                max={100}
                value={width.value}
                onChange={(event) => width.onChange(event.target.value)}
                onBlur={width.onBlur}
              />
            </div>
            <div className="field">
              <label htmlFor={`${idBase}-align`} className="field__label">
                Alignment
              </label>
              <select
                ref={alignRef}
                id={`${idBase}-align`}
                className="input input--select"
                value={align.value}
                onChange={(event) => align.onChange(event.target.value)}
                onBlur={align.onBlur}
              >
                <option value="left">Left</option>
                <option value="center">Center</option>
                <option value="right">Right</option>
              </select>
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${idBase}-link`} className="field__label">
              Link URL<span className="field__optional"> (optional)</span>
            </label>
            <p id={`${idBase}-link-hint`} className="field__hint">
              Where a click on the image goes; https:// is added when left out.
            </p>
            <input
              ref={linkRef}
              id={`${idBase}-link`}
              className="input"
              type="text"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              value={link.value}
              aria-invalid={linkError ? true : undefined}
              aria-describedby={`${idBase}-link-hint${linkError ? ` ${idBase}-link-error` : ''}`}
              onChange={(event) => link.onChange(event.target.value)}
              onBlur={link.onBlur}
            />
            {linkError && <FieldError id={`${idBase}-link-error`} errors={[linkError]} />}
            <SaveStatus save={exportForm.linkSave} what="link" />
          </div>
        </>
      )}
    </fieldset>
  );
}

/**
 * The export screen's video fieldset for Wistia and Vidalytics (docs/export.md "The screen"): where
 * the Vidalytics image shows, and the player's embed code the script goes after.
 */
export function VideoFieldset({
  idBase,
  exportForm,
  platform,
}: {
  idBase: string;
  exportForm: ExportFormState;
  platform: Provider;
}) {
  const { control } = exportForm.form;
  const edited = { onChange: exportForm.clearOutputs };
  const { ref: _vidalyticsRef, ...vidalytics } = useController({
    control,
    name: 'vidalytics',
    rules: edited,
  }).field;
  const {
    field: { ref: embedRef, ...embed },
    fieldState: { error: embedProblem },
  } = useController({ control, name: 'embedCode', rules: edited });
  const embedError = embedProblem?.message;

  return (
    <fieldset className="fieldset stack">
      <legend className="field__label">{platform.label} video</legend>
      {platform.value === 'vidalytics' && (
        <Notice tone="info" title="What the Vidalytics script does">
          Vidalytics has no documented way for a web page to change a player&apos;s image for each
          viewer, so the script does not change the player by itself. It works out this
          viewer&apos;s image from the page&apos;s address and hands it, with the choices below, to
          your page&apos;s own code as <code>window.PicSnippetsVidalytics</code>. For one image for
          every viewer, upload the Direct link&apos;s image as the video&apos;s thumbnail in
          Vidalytics instead.
        </Notice>
      )}
      {platform.value === 'vidalytics' && (
        <div className="stack" role="group" aria-label="Show the image in the player">
          {(
            [
              ['default', 'Before the video plays'],
              ['pause', 'When the video is paused'],
              ['mobile', 'On mobile devices'],
            ] as const
          ).map(([key, label]) => (
            <label key={key} className="checkbox-row">
              <input
                type="checkbox"
                className="checkbox"
                checked={vidalytics.value[key]}
                onChange={(event) =>
                  vidalytics.onChange({ ...vidalytics.value, [key]: event.target.checked })
                }
              />
              {label}
            </label>
          ))}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${idBase}-embed`} className="field__label">
          Video embed code
        </label>
        <p id={`${idBase}-embed-hint`} className="field__hint">
          Paste the embed code {platform.label} gives for the video; the script goes after it on
          your page.
        </p>
        <textarea
          ref={embedRef}
          id={`${idBase}-embed`}
          className="input input--mono"
          rows={4}
          required
          spellCheck={false}
          value={embed.value}
          aria-invalid={embedError ? true : undefined}
          aria-describedby={`${idBase}-embed-hint${embedError ? ` ${idBase}-embed-error` : ''}`}
          onChange={(event) => embed.onChange(event.target.value)}
          onBlur={embed.onBlur}
        />
        {embedError && <FieldError id={`${idBase}-embed-error`} errors={[embedError]} />}
      </div>
    </fieldset>
  );
}
