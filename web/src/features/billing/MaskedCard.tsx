import type { Card } from '#shared/billing.ts';
import { cardBrandName, maskedCardNumber } from './format.ts';
import './billing.css';

/** Brand colours of the small card icon (docs/accounts.md "Constants": "Card brands map to icons"). */
const BRAND_COLOURS: Record<string, string> = {
  visa: '#1a1f71',
  mastercard: '#eb001b',
  amex: '#2e77bb',
  discover: '#e65c00',
  jcb: '#0b4ea2',
  diners: '#004a97',
  unionpay: '#e21836',
};

/** The short text inside the icon: "VISA", "MC", "AMEX"… */
const BRAND_MARKS: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'MC',
  amex: 'AMEX',
  discover: 'DISC',
  jcb: 'JCB',
  diners: 'DC',
  unionpay: 'UP',
};

/**
 * A card icon for a brand: a small card shape in the brand's colour with its mark. Decorative:
 * the brand's name is written beside it.
 */
export function CardBrandIcon({ brand }: { brand: string }) {
  const key = brand.toLowerCase();
  const fill = BRAND_COLOURS[key] ?? '#4a5163';
  const mark = BRAND_MARKS[key] ?? '';
  return (
    <svg className="card-brand" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">
      <rect x="0.5" y="0.5" width="47" height="31" rx="4" fill={fill} stroke="rgb(0 0 0 / 20%)" />
      {mark ? (
        <text
          x="24"
          y="20"
          textAnchor="middle"
          fill="#ffffff"
          fontSize={mark.length > 3 ? 10 : 12}
          fontWeight="700"
          fontFamily="system-ui, sans-serif"
        >
          {mark}
        </text>
      ) : (
        <rect x="6" y="8" width="10" height="8" rx="1.5" fill="#f5d37a" />
      )}
    </svg>
  );
}

/**
 * The card on file: the brand's icon and name, twelve asterisks and the last four digits
 * (docs/accounts.md "Constants"), and the expiry when known. Screen readers hear "Visa ending in
 * 4242".
 */
export function MaskedCard({ card }: { card: Card }) {
  const brand = cardBrandName(card.brand);
  const expires =
    card.exp_month && card.exp_year
      ? `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year).slice(-2)}`
      : '';
  return (
    <p className="masked-card">
      <CardBrandIcon brand={card.brand} />
      <span className="masked-card__brand">{brand}</span>
      <span className="masked-card__number" aria-hidden="true">
        {maskedCardNumber(card.last4)}
      </span>
      <span className="visually-hidden">ending in {card.last4}</span>
      {expires && <span className="masked-card__expiry muted">Expires {expires}</span>}
    </p>
  );
}
