import { useEffect, useState } from 'react';
import { providerOf } from '#shared/providers/index.ts';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { rowProblem, type ExportRow } from './model.ts';

/**
 * Checks that fixed hosted-image URLs load (docs/export.md "The screen" 'Error: image doesn`t
 * exist'), once typing has paused for `delayMs`.
 * @returns the URLs that did not load.
 */
export function useMissingImages(
  rows: readonly ExportRow[],
  provider: string | null,
  delayMs: number,
): Set<string> {
  const [found, setFound] = useState<{ urls: string; missing: Set<string> }>({
    urls: '',
    missing: new Set(),
  });
  const urls = useDebouncedValue(
    rows
      .filter(
        (r) =>
          r.dynamicStickerType === 'hostedImage' &&
          r.merge_tag_value.trim() !== '' &&
          !providerOf(provider).parseTag(r.merge_tag_value) &&
          rowProblem(provider, r) === null,
      )
      .map((r) => r.merge_tag_value.trim())
      .join('\n'),
    delayMs,
  );
  useEffect(() => {
    let live = true;
    const missing = new Set<string>();
    const probes = (urls === '' ? [] : urls.split('\n')).map((url) => {
      const image = new Image();
      image.onerror = () => {
        missing.add(url);
        if (live) setFound({ urls, missing: new Set(missing) });
      };
      image.src = url;
      return image;
    });
    return () => {
      live = false;
      for (const probe of probes) probe.onerror = null;
    };
  }, [urls]);
  return found.urls === urls ? found.missing : new Set();
}
