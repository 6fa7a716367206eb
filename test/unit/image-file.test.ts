import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_FILE_BYTES, imageFileProblem } from '../../web/src/components/imageFile.ts';

describe('imageFileProblem (the photo and watermark pickers)', () => {
  it('lets the server-accepted types through, whatever the case of the extension', () => {
    for (const name of ['me.jpg', 'me.JPEG', 'logo.png', 'a.gif', 'a.webp', 'a.Bmp']) {
      expect(imageFileProblem({ name, size: 1000 }, 'photo'), name).toBeNull();
    }
  });

  it('refuses other types before uploading', () => {
    for (const name of ['logo.svg', 'doc.pdf', 'photo.jpg.exe', 'noextension']) {
      expect(imageFileProblem({ name, size: 1000 }, 'photo'), name).toBe(
        'Choose a JPG, PNG, GIF, WebP or BMP image.',
      );
    }
  });

  it('refuses a file over 8 MB, naming what it is', () => {
    expect(
      imageFileProblem({ name: 'logo.png', size: MAX_IMAGE_FILE_BYTES }, 'watermark'),
    ).toBeNull();
    expect(
      imageFileProblem({ name: 'logo.png', size: MAX_IMAGE_FILE_BYTES + 1 }, 'watermark'),
    ).toBe('The watermark may not be greater than 8 MB.');
  });
});
