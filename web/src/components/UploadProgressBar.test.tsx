/**
 * An upload's progress bar (./UploadProgressBar.tsx): a progressbar named "Upload progress"
 * whose value is the share of bytes sent, shown only while a file is being sent.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/TestProviders.tsx';
import { UploadProgressBar } from './UploadProgressBar.tsx';

describe('UploadProgressBar', () => {
  it('is not there while nothing is being sent', () => {
    renderWithProviders(<UploadProgressBar progress={null} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows the share sent, from 0 to 1', () => {
    renderWithProviders(<UploadProgressBar progress={0.4} />);
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' }) as HTMLProgressElement;
    expect(bar.max).toBe(1);
    expect(bar.value).toBe(0.4);
  });

  it('is there from the first byte (0 is progress, not "nothing")', () => {
    renderWithProviders(<UploadProgressBar progress={0} />);
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' }) as HTMLProgressElement;
    expect(bar.value).toBe(0);
  });
});
