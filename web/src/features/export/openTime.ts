/**
 * The open-time facts of a design for the export screen's hints (docs/export.md "Open-time
 * hints"; OpenTimeHints.tsx): read from the design's answer, defensively.
 */

/** The open-time facts of a design, read from its answer by {@link openTimeFacts}. */
export interface OpenTimeFacts {
  /** An evergreen countdown counts from the recipient's first open. */
  firstOpenTimer: boolean;
  /**
   * The design's parameters that can name a recipient (text parameters, dynamic stickers' but
   * not countdowns'), sorted, each once.
   */
  params: string[];
  /** The design has rules. */
  rules: boolean;
  /**
   * URL parameters that select a looked-up record: a store binding's key parameter, an API
   * binding's placeholders filled from a parameter; `apiByName` when an API binding fills its
   * placeholders by their own names (the names are in the API's URL, not in the design).
   */
  dataParams: string[];
  apiByName: boolean;
  /**
   * The design's poll: its voter parameter (null: all the recipient's values) and the seconds
   * its live results are kept (docs/polls.md); absent: no poll.
   */
  poll?: { voter: string | null; resultsS: number } | undefined;
  /** Weather stickers' place parameters (docs/weather.md "The weather sticker"), and whether one reads the reader's place. */
  weather?: { params: string[]; viewer: boolean } | undefined;
  /** The shortest refresh of the design's live web crops, s (docs/web-crops.md); absent: none. */
  cropRefreshS?: number | undefined;
}

/** A design answer with its open-time facts (absent: nothing to say). */
export interface OpenTimeDesign {
  open_time?: OpenTimeFacts;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v.slice(0, 1000) : []);
const names = (values: unknown[]): string[] =>
  [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))].sort();

/**
 * Reads the open-time facts from a design answer (`GET /api/pic-snippet/{id}`), defensively:
 * what is missing or malformed counts as absent.
 */
export function openTimeFacts(body: Record<string, unknown>): OpenTimeFacts {
  const graphics = list(body.graphics_data).filter(isRecord);
  const params = names([
    ...list(body.text_snippets)
      .filter(isRecord)
      .flatMap((s) =>
        list(s.parameters)
          .filter(isRecord)
          .map((p) => p.param_name),
      ),
    // a countdown's own parameter holds its start, not who the recipient is
    ...graphics
      .filter((s) => s.dynamicStickerType !== 'countdown')
      .map((s) => s.dynamicStickerParamName),
  ]);
  const bindings = list(body.data_bindings).filter(isRecord);
  return {
    firstOpenTimer: graphics.some(
      (s) =>
        s.dynamicStickerType === 'countdown' &&
        isRecord(s.countdown) &&
        s.countdown.mode === 'evergreen' &&
        s.countdown.start === 'first_open',
    ),
    params,
    rules: list(body.rules).length > 0,
    dataParams: names(
      bindings.flatMap((b) =>
        b.source === 'store'
          ? [b.key_param]
          : list(b.url_values)
              .filter(isRecord)
              .map((v) => v.param),
      ),
    ),
    apiByName: bindings.some((b) => b.source === 'api' && !Array.isArray(b.url_values)),
    ...liveFacts(graphics),
  };
}

/** The facts of a design's live content: a poll, weather stickers, web crops. */
function liveFacts(graphics: Record<string, unknown>[]): Partial<OpenTimeFacts> {
  const poll = graphics.find((s) => s.dynamicStickerType === 'poll' && isRecord(s.poll))?.poll as
    Record<string, unknown> | undefined;
  const weather = graphics.filter((s) => s.dynamicStickerType === 'weather' && isRecord(s.weather));
  const refreshes = graphics
    .filter((s) => s.dynamicStickerType === 'screenShot' && isRecord(s.crop))
    .map((s) => (s.crop as Record<string, unknown>).refresh_s)
    .filter((r): r is number => typeof r === 'number');
  return {
    ...(poll
      ? {
          poll: {
            voter: typeof poll.voter_parameter === 'string' ? poll.voter_parameter : null,
            resultsS: typeof poll.results_ttl_s === 'number' ? poll.results_ttl_s : 60,
          },
        }
      : {}),
    ...(weather.length > 0
      ? {
          weather: {
            params: names(weather.map((s) => s.dynamicStickerParamName)),
            viewer: weather.some(
              (s) => (s.weather as Record<string, unknown>).use_viewer_place === true,
            ),
          },
        }
      : {}),
    ...(refreshes.length > 0 ? { cropRefreshS: Math.min(...refreshes) } : {}),
  };
}
