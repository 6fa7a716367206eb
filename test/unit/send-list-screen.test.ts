/**
 * The send-list screen's rules (web/src/features/send-lists/model.ts; docs/send-lists.md): the
 * files the picker takes, when polling stops, and the progress and ETA texts a user reads.
 */
import { describe, expect, it } from 'vitest';
import {
  etaText,
  fileSize,
  isFinished,
  parameterNames,
  progressText,
  sendListFormat,
} from '../../web/src/features/send-lists/model.ts';
import { toExportDesign } from '../../web/src/features/export/api.ts';

describe('send-list screen rules', () => {
  it('takes .csv and .xlsx files by name, in any case, and nothing else', () => {
    expect(sendListFormat('November.CSV')).toBe('csv');
    expect(sendListFormat('list.xlsx')).toBe('xlsx');
    expect(sendListFormat('list.xls')).toBeNull();
    expect(sendListFormat('list.csv.exe')).toBeNull();
  });

  it('stops polling at done, cancelled and failed only', () => {
    expect(['uploading', 'queued', 'running'].map((s) => isFinished(s as 'queued'))).toEqual([
      false,
      false,
      false,
    ]);
    expect(['done', 'cancelled', 'failed'].map((s) => isFinished(s as 'done'))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('counts done and failed rows against the rows to render', () => {
    expect(progressText({ done: 1_190, failed: 10, duplicates: 40, total: 2_000 })).toBe(
      '1,200 of 2,000 rows (60 %)',
    );
    expect(progressText({ done: 0, failed: 0, duplicates: 0, total: 0 })).toBe(
      '0 of 0 rows (100 %)',
    );
  });

  it('says the time left in words, and that it is estimating before the server knows', () => {
    expect(etaText(null)).toBe('Estimating the time left…');
    expect(etaText(0)).toBe('Almost done');
    expect(etaText(2)).toBe('About 5 seconds left');
    expect(etaText(42)).toBe('About 40 seconds left');
    expect(etaText(90)).toBe('About 2 minutes left');
    expect(etaText(3_900)).toBe('About 1 h 5 min left');
    expect(fileSize(512_300)).toBe('512 KB');
    expect(fileSize(3_420_000)).toBe('3.4 MB');
  });

  it('names the header columns: parameters and dynamic stickers, each once', () => {
    const design = toExportDesign({
      id: 'd1',
      text_snippets: [
        { parameters: [{ id: 'p1', param_name: 'name' }] },
        {
          parameters: [
            { id: 'p2', param_name: 'name' },
            { id: 'p3', param_name: 'city' },
          ],
        },
      ],
      graphics_data: [
        {
          uuid: 's1',
          stickerType: 'dynamicSticker',
          dynamicStickerType: 'gravatar',
          dynamicStickerParamName: 'email_hash',
        },
      ],
    });
    expect(parameterNames(design)).toEqual(['name', 'city', 'email_hash']);
  });
});
