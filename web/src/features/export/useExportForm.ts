import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { EXPORT_MESSAGES, ExportError, normaliseLinkUrl } from '#shared/export-url.ts';
import { DEFAULT_VIDALYTICS_OPTIONS, type VidalyticsOptions } from '#shared/providers/index.ts';
import type { HtmlAlignment } from '#shared/export-url.ts';
import { actionFailure } from '../../lib/formFailure.ts';
import { createCacheId, namesSignature, saveLink } from './api.ts';
import {
  exportAlt,
  generateOutputs,
  IMAGE_FORMATS,
  urlInput,
  type ImageFormat,
  htmlWidth,
  linkParameterNames,
  usesDenseImage,
  originOf,
  type ExportDesign,
  type ExportOutputs,
  type ExportRow,
} from './model.ts';
import { useSave, type SaveState } from './useSave.ts';

/** What the export screen's Generate form holds (the platform and values are saved apart). */
export interface ExportFormValues {
  pdf: boolean;
  /** JPEG, or WebP or AVIF for a web page or video player (docs/export.md "Image formats"). */
  imageFormat: ImageFormat;
  /** The HTML width in %, as typed. */
  width: string;
  align: HtmlAlignment;
  /** The link around the image, as typed. */
  link: string;
  /** Wistia's or Vidalytics' embed code. */
  embedCode: string;
  vidalytics: VidalyticsOptions;
  /** A platform API key typed to list the account's own fields (never saved by the form). */
  accessToken: string;
}

/**
 * Generate's rules: the link is a web link (shared/export-url.ts `normaliseLinkUrl`, the rule
 * the server's `PUT …/link` applies) and comes out normalised; the width comes out as a whole
 * percentage (1–100).
 */
export const ExportFormSchema = z.object({
  pdf: z.boolean(),
  imageFormat: z.enum(IMAGE_FORMATS),
  width: z.string().transform(htmlWidth),
  align: z.enum(['left', 'center', 'right']),
  link: z.string().transform((value, ctx) => {
    const normalised = normaliseLinkUrl(value);
    if (normalised !== undefined) return normalised;
    ctx.addIssue({ code: 'custom', message: EXPORT_MESSAGES.linkInvalid });
    return z.NEVER;
  }),
  embedCode: z.string(),
  vidalytics: z.object({ default: z.boolean(), pause: z.boolean(), mobile: z.boolean() }),
  accessToken: z.string(),
});

/** The Generate form (react-hook-form). */
export type ExportForm = UseFormReturn<
  ExportFormValues,
  unknown,
  z.output<typeof ExportFormSchema>
>;

/** What Generate uses besides the form: the saved choices as they are now. */
export interface GenerateInput {
  provider: string;
  rows: readonly ExportRow[];
  /** PDF can be chosen (the plan and platform allow it). */
  pdfAllowed: boolean;
  /** The design requires signed URLs: the URL gets a names-form signature. */
  signed?: boolean;
}

/** The export screen's Generate form, from {@link useExportForm}. */
export interface ExportFormState {
  form: ExportForm;
  outputs: ExportOutputs | null;
  /** Drops the outputs: something they were made from has changed. */
  clearOutputs: () => void;
  generating: boolean;
  generateError: string | null;
  /** Checks the form, then makes the outputs (docs/export.md "The screen" Generate). */
  generate: (input: GenerateInput) => void;
  linkSave: SaveState;
  /** The link typed differs from the one last saved, or its save failed. */
  linkUnsaved: boolean;
  /** The link field was left: checks it and, when it is a web link, saves it normalised. */
  commitLink: () => void;
  /** The width field was left: shows the width Generate will use. */
  commitWidth: () => void;
}

/**
 * The export screen's form (docs/export.md "The screen"): image or PDF, HTML width and alignment,
 * the link URL (saved when the field is left, `PUT …/link`), the video embed code and Vidalytics'
 * options, the API key; and Generate, which gets a cache id for the design as it is (`POST
 * …/cache-id`) and builds the HTML, the direct link and the script.
 */
export function useExportForm(design: ExportDesign): ExportFormState {
  const form: ExportForm = useForm({
    resolver: zodResolver(ExportFormSchema),
    defaultValues: {
      pdf: false,
      imageFormat: 'jpeg',
      width: '100',
      align: 'center',
      link: design.html_link_url ?? '',
      embedCode: '',
      vidalytics: DEFAULT_VIDALYTICS_OPTIONS,
      accessToken: '',
    },
  });
  const { getValues, setValue, setError, trigger, control } = form;
  const [outputs, setOutputs] = useState<ExportOutputs | null>(null);
  const [generateError, setGenerateError] = useState<string | null>(null);
  const [linkSave, runLinkSave] = useSave();
  /** The link as last handed to a save (or loaded). */
  const [sentLink, setSentLink] = useState(design.html_link_url ?? '');
  const link = useWatch({ control, name: 'link' });

  function commitLink() {
    void trigger('link');
    const typed = getValues('link');
    const normalised = normaliseLinkUrl(typed);
    if (normalised === undefined) return;
    if (normalised !== typed) setValue('link', normalised);
    setSentLink(normalised);
    if (normalised === (design.html_link_url ?? '') && linkSave.state === 'idle') return;
    void runLinkSave(() => saveLink(design.id, normalised));
  }

  function commitWidth() {
    const typed = getValues('width');
    const shown = String(htmlWidth(typed));
    if (shown !== typed) setValue('width', shown);
  }

  function generate(input: GenerateInput) {
    // "Require signed URLs" as the screen has it now, not as the design loaded (it may be turned
    // on or off here): signed URLs keep the still (docs/export.md "Animated designs"), and a
    // poll's buttons follow the signing (docs/polls.md "In the e-mail").
    const drawn = input.signed
      ? { ...design, require_signed_urls: true, animated_gif: false }
      : { ...design, require_signed_urls: false };
    void form.handleSubmit(async (values) => {
      setGenerateError(null);
      let cacheId: string;
      let signature: string | undefined;
      let denseSignature: string | undefined;
      let voteSignature: string | undefined;
      const pdf = values.pdf && input.pdfAllowed;
      try {
        // The design as it is now: e-mails sent with these URLs keep this image after edits.
        cacheId = await createCacheId(design.id);
        // Only signed URLs draw it: the URL's names are signed, the platform fills the values.
        if (input.signed) {
          const names = linkParameterNames(drawn, {
            provider: input.provider,
            rows: input.rows,
            pdf,
            cacheId,
            imageFormat: values.imageFormat,
          });
          const format = urlInput(
            drawn,
            input.provider,
            input.rows,
            pdf,
            cacheId,
            values.imageFormat,
          ).format;
          signature = await namesSignature(design.id, names, cacheId, pdf, format ?? null);
          // A poll's answer links carry `__vote` too: signed apart (docs/polls.md "In the e-mail").
          if (design.poll)
            voteSignature = await namesSignature(
              design.id,
              [...names, '__vote'],
              cacheId,
              pdf,
              format ?? null,
            );
          // The 2× image's path is signed apart (docs/export.md "Density").
          if (usesDenseImage(drawn, pdf, input.provider))
            denseSignature = await namesSignature(
              design.id,
              names,
              cacheId,
              pdf,
              format ?? null,
              2,
            );
        }
      } catch (error) {
        setGenerateError(`Nothing was generated: ${actionFailure(error)}`);
        return;
      }
      try {
        setOutputs(
          generateOutputs(drawn, {
            cacheId,
            signature,
            denseSignature,
            voteSignature,
            provider: input.provider,
            imageFormat: values.imageFormat,
            rows: input.rows,
            pdf,
            width: values.width,
            align: values.align,
            link: values.link,
            embedCode: values.embedCode,
            vidalytics: values.vidalytics,
            origin: originOf(design.base_url) || window.location.origin,
            alt: exportAlt(design, input.provider, input.rows) || design.title,
          }),
        );
      } catch (error) {
        if (!(error instanceof ExportError)) throw error;
        setError('embedCode', { type: 'generate', message: error.message }, { shouldFocus: true });
      }
    })();
  }

  return {
    form,
    outputs,
    clearOutputs: () => setOutputs(null),
    generating: form.formState.isSubmitting,
    generateError,
    generate,
    linkSave,
    linkUnsaved: (normaliseLinkUrl(link) ?? link) !== sentLink || linkSave.state === 'failed',
    commitLink,
    commitWidth,
  };
}
