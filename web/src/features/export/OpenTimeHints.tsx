/**
 * What the export screen says about a design that decides something when its image is opened
 * (docs/export.md "Open-time hints"): a countdown counting from each recipient's first open
 * needs a value in the URL that tells recipients apart (docs/adr/0058-countdown-timers.md
 * "Countdown timers"), rules need the click-through link on the image (docs/rules.md "Links"), and
 * data bindings are looked up by a value of the URL (docs/data-sources.md "Binding a design").
 */
import { Notice } from '../../components/Notice.tsx';
import type { OpenTimeFacts } from './openTime.ts';

const code = (items: string[], last = 'or') =>
  items.map((n, i) => (
    <span key={n}>
      {i > 0 && (i === items.length - 1 ? ` ${last} ` : ', ')}
      <code>{n}</code>
    </span>
  ));

/** The hints, one short notice each; nothing for a design that decides nothing at open time. */
export function OpenTimeHints({ facts }: { facts: OpenTimeFacts | undefined }) {
  if (!facts) return null;
  const data = facts.dataParams.length > 0 || facts.apiByName;
  // a key parameter need not be the design's: the export's URL carries only the design's
  const outside = facts.dataParams.filter((p) => !facts.params.includes(p));
  const live = facts.poll ?? facts.weather ?? facts.cropRefreshS;
  if (!facts.firstOpenTimer && !facts.rules && !data && live === undefined) return null;
  return (
    <div className="stack" data-testid="export-open-time-hints">
      {facts.firstOpenTimer && (
        <Notice tone="info" title="The timer counts from each recipient's first open">
          {facts.params.length > 0 ? (
            <>
              The recipient is told apart by the values in the URL ({code(facts.params)}): give
              every recipient a value of their own in at least one of them, such as an e-mail
              address or a customer id. A URL without any of these values counts from every open,
              and recipients with the same values share one timer.
            </>
          ) : (
            <>
              This PicSnippet has no parameter, so its URL names no recipient and the timer counts
              from every open. Add a parameter (such as <code>email</code>) and give each recipient
              their value.
            </>
          )}
        </Notice>
      )}
      {facts.rules && (
        <Notice tone="info" title="Link the image to the click-through link">
          This PicSnippet has rules. After Generate, put the <strong>Click-through link</strong>{' '}
          (shown under the direct link) on the image, not the direct link: each click then goes
          where the rule the recipient saw says, and to the Link URL below when no rule matched.
        </Notice>
      )}
      {data && (
        <Notice tone="info" title="Data is looked up when the image opens">
          {facts.dataParams.length > 0 && (
            <>
              {facts.dataParams.length === 1 ? (
                <>
                  The URL&apos;s value of {code(facts.dataParams)} selects the record: map it to a
                  merge field of each recipient.{' '}
                </>
              ) : (
                <>
                  The URL&apos;s values of {code(facts.dataParams, 'and')} select the records: map
                  them to merge fields of each recipient.{' '}
                </>
              )}
            </>
          )}
          {outside.length > 0 && (
            <>
              {code(outside)} {outside.length === 1 ? 'is' : 'are'} not a parameter of this
              PicSnippet, so the generated URL does not carry {outside.length === 1 ? 'it' : 'them'}
              : add <code>&amp;{outside[0]}=</code> and the merge field to the URL yourself.{' '}
            </>
          )}
          {facts.apiByName && (
            <>A web API takes the values named in its own URL (as in {'{sku}'}) from the URL. </>
          )}
          Without a match the parameters show the URL&apos;s values or their fallbacks.
        </Notice>
      )}
      {facts.poll && (
        <Notice tone="info" title="A poll votes through its answer buttons">
          The e-mail HTML adds a button per answer under the image. Each vote is told apart by{' '}
          {facts.poll.voter ? (
            <>
              the URL&apos;s value of <code>{facts.poll.voter}</code>: map it to a merge field that
              is each recipient&apos;s own, such as their e-mail address
            </>
          ) : (
            <>all the values in the URL together</>
          )}
          . The image shows the results as they were up to {seconds(facts.poll.resultsS)} ago.
        </Notice>
      )}
      {facts.weather && (
        <Notice tone="info" title="The weather is looked up when the image opens">
          {facts.weather.params.length > 0 && (
            <>
              The place comes from {code(facts.weather.params)}: map it to each recipient&apos;s
              city or postcode.{' '}
            </>
          )}
          {facts.weather.viewer && (
            <>
              Without one, the reader&apos;s own place is used, and the image is not shared by the
              CDN.{' '}
            </>
          )}
          The image is kept up to 30 minutes.
        </Notice>
      )}
      {facts.cropRefreshS !== undefined && (
        <Notice tone="info" title="A live web crop is taken again now and then">
          The page&apos;s element is shown as it was up to {seconds(facts.cropRefreshS)} ago.
        </Notice>
      )}
    </div>
  );
}

/** A time in s as words: `45 seconds`, `5 minutes`, `2 hours`. */
function seconds(s: number): string {
  if (s < 120) return `${s} seconds`;
  if (s < 7200) return `${Math.round(s / 60)} minutes`;
  return `${Math.round(s / 3600)} hours`;
}
