/**
 * The countdown timer sticker the tests and the bench put in designs: a 600 x 200 px dynamic
 * sticker at the top left whose settings are `countdown` (shared/scene/countdown.ts
 * `CountdownSchema`; docs/adr/0058-countdown-timers.md "Countdown timers").
 * @param extra other sticker fields (a `param_name` for an evergreen start, another place…).
 */
export function countdownSticker(
  countdown: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    uuid: 'timer-1',
    stickerType: 'dynamicSticker',
    dynamicStickerType: 'countdown',
    left: 0,
    top: 0,
    width: 600,
    height: 200,
    scaleX: 1,
    scaleY: 1,
    countdown,
    ...extra,
  };
}

/**
 * A 20 x 20 px image sticker at the top left, for tests of the order of layers around a timer.
 * @param uuid the sticker's id; its URL is `/{uuid}.png`.
 */
export function layerSticker(uuid: string): Record<string, unknown> {
  return {
    uuid,
    stickerType: 'sticker',
    url: `/${uuid}.png`,
    left: 0,
    top: 0,
    width: 20,
    height: 20,
  };
}
