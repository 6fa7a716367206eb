/**
 * The countdown timer benchmark (docs/performance.md "Countdown timers"): a 600×200 design over
 * the reference photo (autumn.jpg) holding one countdown sticker of 30 frames (DD:HH:MM:SS with
 * labels), rendered through the local gateway as the animated GIF and, beside it, as the static
 * JPEG of the same design (its first frame). Every request is at its own second (the stack runs
 * with STAGE=test, so the test clock header is honoured), so every one is a draw, not a cache
 * hit. Reports p50/p90 ms, bytes, and the CPU the node process spent per render (sharp's
 * compose and GIF encode; the Chromium page's own CPU is a separate process, not counted), and
 * the GIF's stages from its Server-Timing (the frames' draw and compose, the encode).
 * Merges `timer_gif_p50_ms` and `timer_gif_bytes` into bench-results/render.json.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DesignDocumentSchema } from '#shared/design.ts';
import { TEST_NOW_HEADER } from '#functions/render/countdown-gif.ts';
import { zonedInstant } from '#shared/scene/countdown.ts';
import type { LocalStack } from '#infra/local/stack.ts';
import { percentile, round1 } from './measure.ts';
import { PHOTO_KEY, REFERENCE_TEAM_ID } from './reference.ts';
import { formatTable } from './table.ts';
import { countdownSticker } from '../support/countdown.ts';
import { RESULTS_DIR, sized } from './scale.ts';

const PUBLIC_ID = 'bench-timer';
const DEADLINE = '2031-01-01T00:00';
const ZONE = 'UTC';
/** Sample counts: the GIF is the slow one. */
const RUNS = { warmup: sized(2, 1), gif: sized(12, 2), jpeg: sized(12, 2) };

/** What the timer part reports (also merged into render.json: the first two fields). */
export interface TimerBenchResult {
  timer_gif_p50_ms: number;
  timer_gif_bytes: number;
  timer_gif_p90_ms: number;
  timer_gif_cpu_ms_per_render: number;
  timer_gif_frames: number;
  static_jpeg_p50_ms: number;
  static_jpeg_p90_ms: number;
  static_jpeg_bytes: number;
  static_jpeg_cpu_ms_per_render: number;
  /**
   * p50 of the GIF's own stages from its Server-Timing, ms: `timer` (the page's draws and the
   * frames' compose) and `encode` (sharp's gifsave and the join).
   */
  timer_gif_stages_p50_ms: { timer: number; encode: number };
  canvas: string;
  samples: { gif: number; jpeg: number };
  measured_at: string;
}

async function insertTimerDesign(): Promise<void> {
  const { db } = await import('#lib/db/index.ts');
  await db()
    .Design.put({
      designId: 'design-bench-timer',
      teamId: REFERENCE_TEAM_ID,
      publicId: PUBLIC_ID,
      title: 'Benchmark countdown timer',
      status: 'active',
      version: 1,
      document: DesignDocumentSchema.parse({
        image_id: 'library-autumn',
        base_image_key: PHOTO_KEY,
        canvas_width: 600,
        canvas_height: 200,
        graphics_data: [
          countdownSticker(
            { deadline: DEADLINE, timeZone: ZONE, frames: 30, fontFamily: 'Lato' },
            { uuid: 'bench-timer-1' },
          ),
        ],
      }),
    })
    .go();
}

/** Renders at one second each; returns ms, bytes and the node CPU ms of each. */
async function measure(
  stack: LocalStack,
  path: string,
  runs: number,
  firstSecond: number,
): Promise<{ ms: number[]; bytes: number; cpuMs: number[]; stages: Record<string, number[]> }> {
  const ms: number[] = [];
  const cpuMs: number[] = [];
  const stages: Record<string, number[]> = { timer: [], encode: [] };
  let bytes = 0;
  for (let i = -RUNS.warmup; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const res = await fetch(`${stack.url}${path}`, {
      headers: { [TEST_NOW_HEADER]: String(firstSecond + (i + RUNS.warmup) * 1000) },
      signal: AbortSignal.timeout(60_000),
    });
    const body = Buffer.from(await res.arrayBuffer());
    const took = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // A warm-up draws the static layer and may pass the render's time budget on a busy machine.
    if (i < 0) continue;
    if (res.status !== 200 || /no-store/.test(res.headers.get('cache-control') ?? ''))
      throw new Error(`timer bench: ${path} answered the fallback (LOG_LEVEL=warn shows why)`);
    ms.push(took);
    cpuMs.push((used.user + used.system) / 1000);
    for (const part of (res.headers.get('server-timing') ?? '').split(',')) {
      const [name, dur] = part.trim().split(';dur=');
      if (name && dur && stages[name]) stages[name].push(Number(dur));
    }
    bytes = body.length;
  }
  return { ms, bytes, cpuMs, stages };
}

/**
 * Runs the timer part on a started stack and merges its two headline fields into
 * bench-results/render.json (written whole by the full run, kept otherwise).
 */
export async function runTimerBench(stack: LocalStack): Promise<TimerBenchResult> {
  await insertTimerDesign();
  // Two days before the deadline: every frame shows other seconds, none expired.
  const start = zonedInstant(DEADLINE, ZONE) - 2 * 86_400_000;
  const gif = await measure(stack, `/r/${PUBLIC_ID}`, RUNS.gif, start);
  const jpeg = await measure(stack, `/r/${PUBLIC_ID}.jpg`, RUNS.jpeg, start + 3_600_000);
  const p = (values: number[], n: number) => round1(percentile(values, n));
  const result: TimerBenchResult = {
    timer_gif_p50_ms: p(gif.ms, 50),
    timer_gif_bytes: gif.bytes,
    timer_gif_p90_ms: p(gif.ms, 90),
    timer_gif_cpu_ms_per_render: p(gif.cpuMs, 50),
    timer_gif_frames: 30,
    static_jpeg_p50_ms: p(jpeg.ms, 50),
    static_jpeg_p90_ms: p(jpeg.ms, 90),
    static_jpeg_bytes: jpeg.bytes,
    static_jpeg_cpu_ms_per_render: p(jpeg.cpuMs, 50),
    timer_gif_stages_p50_ms: {
      timer: p(gif.stages.timer ?? [], 50),
      encode: p(gif.stages.encode ?? [], 50),
    },
    canvas: '600x200, autumn.jpg, one 600x200 countdown sticker, DD:HH:MM:SS with labels',
    samples: { gif: gif.ms.length, jpeg: jpeg.ms.length },
    measured_at: new Date().toISOString(),
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'render.json');
  const kept = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown>)
    .catch(() => ({}));
  await writeFile(
    file,
    `${JSON.stringify(
      {
        ...kept,
        timer_gif_p50_ms: result.timer_gif_p50_ms,
        timer_gif_bytes: result.timer_gif_bytes,
        timer: result,
      },
      null,
      2,
    )}\n`,
  );
  console.log(
    `\n${formatTable(
      ['measure', 'p50 ms', 'p90 ms', 'bytes', 'cpu ms (node)'],
      [
        {
          measure: 'timer GIF (30 frames)',
          'p50 ms': result.timer_gif_p50_ms,
          'p90 ms': result.timer_gif_p90_ms,
          bytes: result.timer_gif_bytes,
          'cpu ms (node)': result.timer_gif_cpu_ms_per_render,
        },
        {
          measure: 'static JPEG (same design)',
          'p50 ms': result.static_jpeg_p50_ms,
          'p90 ms': result.static_jpeg_p90_ms,
          bytes: result.static_jpeg_bytes,
          'cpu ms (node)': result.static_jpeg_cpu_ms_per_render,
        },
      ],
    )}\n  GIF stages p50 (Server-Timing): frames ${result.timer_gif_stages_p50_ms.timer} ms, encode ${result.timer_gif_stages_p50_ms.encode} ms`,
  );
  return result;
}
