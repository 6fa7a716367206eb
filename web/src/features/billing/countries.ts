/**
 * The billing country choice (docs/billing.md "Model" Registration form `country`, default US,
 * docs/accounts.md "Constants"). Codes are ISO 3166-1 alpha-2 (plus XK, which Stripe accepts);
 * names come from the browser's `Intl.DisplayNames`, so no list of names is kept here.
 */
import { DEFAULT_COUNTRY } from '#shared/billing.ts';

const CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO ' +
  'BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ ' +
  'DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP ' +
  'GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG ' +
  'KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML ' +
  'MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE ' +
  'PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL ' +
  'SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM ' +
  'US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

export interface CountryOption {
  code: string;
  name: string;
}

let options: CountryOption[] | undefined;

/** Every billing country as `{ code, name }`, sorted by English name. */
export function countryOptions(): CountryOption[] {
  if (options) return options;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  options = CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
  return options;
}

/**
 * The billing country to start with: the visitor's country from `GET /geocode/country` when it
 * is one of ours, else US (docs/billing.md "Flows": "ZZ means unknown", docs/accounts.md
 * "Constants": "Default country US").
 *
 * @param detected the code the server answered, any case, or undefined when the call failed.
 */
export function defaultCountry(detected: string | null | undefined): string {
  const code = (detected ?? '').toUpperCase();
  return CODES.includes(code) ? code : DEFAULT_COUNTRY;
}
