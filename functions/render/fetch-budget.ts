/**
 * The outside fetches one render may make (docs/security.md "Design bounds"): hosted images,
 * gravatar look-ups and page screenshots each cost one when they miss the in-memory cache.
 * The values come from the render URL, which anyone can vary per request, so the count is
 * capped; a dynamic sticker past the cap draws its fallback (the design's own value, as when
 * the recipient gives none) if that is already kept, else nothing, and the render is not
 * cached, so a later one draws it once the earlier fetches are kept.
 *
 * Tests: test/unit/fetch-budget.test.ts.
 */

/** Outside fetches per render (docs/security.md "Design bounds"). */
export const MAX_RENDER_FETCHES = 4;

/** The rejection of a fetch the render's budget has no room for. */
export class FetchBudgetSpent extends Error {
  constructor() {
    super(`over ${MAX_RENDER_FETCHES} outside fetches in one render`);
    this.name = 'FetchBudgetSpent';
  }
}

/** One render's count of outside fetches. */
export class FetchBudget {
  private used = 0;
  /** Fetches refused because the budget was spent: the render is then not cached. */
  refused = 0;

  /** @param max the fetches allowed, {@link MAX_RENDER_FETCHES} by default. */
  constructor(readonly max: number = MAX_RENDER_FETCHES) {}

  /** Takes one fetch; false (and one more `refused`) when none is left. */
  take(): boolean {
    if (this.used < this.max) {
      this.used += 1;
      return true;
    }
    this.refused += 1;
    return false;
  }
}

/**
 * A fetching dynamic sticker's image under the budget: `draw(value)`; when the budget refuses
 * that fetch, `draw(fallback)` (a cache hit costs nothing), else nothing.
 * @param value the recipient's value or, when none, the fallback; '' draws nothing.
 * @param fallback the sticker's fallback value (`dynamicStickerUrl`).
 * @param draw makes the image of a value; rejects with {@link FetchBudgetSpent} when it would
 *   fetch past the budget, resolves undefined when the image cannot be had.
 */
export async function drawWithinBudget(
  value: string,
  fallback: string,
  draw: (value: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  if (value === '') return undefined;
  try {
    return await draw(value);
  } catch (error) {
    if (!(error instanceof FetchBudgetSpent)) throw error;
  }
  const kept = fallback.trim();
  if (kept === '' || kept === value) return undefined;
  return draw(kept).catch((error: unknown) => {
    if (error instanceof FetchBudgetSpent) return undefined;
    throw error;
  });
}
