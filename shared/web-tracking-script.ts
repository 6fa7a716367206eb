/**
 * The web-tracking script served at `/js/picsnippets.js` (docs/providers.md
 * "Web tracking"; docs/export.md). Small, no dependencies, plain ES2015 so any
 * current browser runs it as served.
 *
 * What it does: for every tagged image
 * `<img data-picsnippet="{render base URL}" data-picsnippet-params="first_name,last_name:lname">`
 * it reads the page's query parameters and sets the image's `src` to the render URL with
 * `param=value` pairs (values with `encodeURIComponent`). Each entry of
 * `data-picsnippet-params` is a design parameter, or `parameter:pageParameter` when the page
 * names it otherwise; without the attribute every query parameter of the page is passed. A
 * parameter the page does not give is left out, so the design's fallback shows.
 * With `data-picsnippet-remember` on the image, values found in the address are kept in
 * localStorage (`picsnippets:{pageParameter}`) and used on later pages without them. With
 * `data-picsnippet-2x="{2× render base URL}"` it also sets `srcset` to the 1× and 2× URLs with
 * the same pairs (docs/export.md "Density").
 *
 * It runs once the DOM is ready and exposes `window.PicSnippets`:
 * - `fill(root?)` fills the tagged images again (pages that add images later);
 * - `url(base, params?, remember?)` gives the URL alone (the Wistia snippet uses it for
 *   `stillUrl`).
 *
 * The source is a string (not a compiled module) so that what the browser runs is exactly what
 * is reviewed here: no bundler helpers, no transpiler output.
 */
export const WEB_TRACKING_SCRIPT = String.raw`/* PicSnippets web tracking: fills <img data-picsnippet> from the page's query parameters. */
(function () {
  'use strict';
  var KEY = 'picsnippets:';
  function storage() {
    try {
      return window.localStorage;
    } catch (e) {
      return null;
    }
  }
  function pageValues() {
    var out = {};
    new URLSearchParams(window.location.search).forEach(function (value, name) {
      if (!Object.prototype.hasOwnProperty.call(out, name)) out[name] = value;
    });
    return out;
  }
  function url(base, params, remember) {
    var page = pageValues();
    var kept = remember ? storage() : null;
    var entries = params ? String(params).split(',') : Object.keys(page);
    var pairs = [];
    entries.forEach(function (entry) {
      var parts = entry.split(':');
      var name = parts[0].trim();
      var from = (parts[1] || parts[0]).trim();
      if (!name) return;
      var value = Object.prototype.hasOwnProperty.call(page, from) ? page[from] : undefined;
      if (kept) {
        try {
          if (value !== undefined) kept.setItem(KEY + from, value);
          else value = kept.getItem(KEY + from) || undefined;
        } catch (e) {
          /* storage full or blocked: the address alone counts */
        }
      }
      if (value !== undefined && value !== '')
        pairs.push(encodeURIComponent(name) + '=' + encodeURIComponent(value));
    });
    if (!pairs.length) return base;
    return base + (base.indexOf('?') < 0 ? '?' : '&') + pairs.join('&');
  }
  function fill(root) {
    var images = (root || document).querySelectorAll('img[data-picsnippet]');
    for (var i = 0; i < images.length; i++) {
      var img = images[i];
      var next = url(
        img.getAttribute('data-picsnippet'),
        img.getAttribute('data-picsnippet-params'),
        img.hasAttribute('data-picsnippet-remember')
      );
      if (img.getAttribute('src') !== next) img.setAttribute('src', next);
      var dense = img.getAttribute('data-picsnippet-2x');
      if (dense) {
        var set = next + ' 1x, ' + url(dense, img.getAttribute('data-picsnippet-params'), img.hasAttribute('data-picsnippet-remember')) + ' 2x';
        if (img.getAttribute('srcset') !== set) img.setAttribute('srcset', set);
      }
    }
  }
  window.PicSnippets = { fill: fill, url: url };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', function () { fill(); });
  else fill();
})();
`;

/**
 * A short version of the script (FNV-1a, 32 bits, hex): the export screen writes
 * `/js/picsnippets.js?v={version}` so the script can be cached for a year, and a changed
 * script gets a new address.
 */
export const WEB_TRACKING_SCRIPT_VERSION: string = fnv1a(WEB_TRACKING_SCRIPT);

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The product's script file name (docs/providers.md `/js/{product}.js`). */
export const WEB_TRACKING_SCRIPT_FILE = 'picsnippets.js';
