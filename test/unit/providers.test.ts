/**
 * Merge-tag provider modules against each platform's documented syntax (docs/export.md;
 * docs/providers.md gives the source of every string checked here).
 */
import { describe, expect, it } from 'vitest';
import {
  KLAVIYO_STOREFRONTS,
  PROVIDERS,
  keapCustomField,
  klaviyoProperty,
  manychatCustomField,
  providerList,
  providerOf,
  vidalyticsEmbed,
  wistiaMediaId,
} from '#shared/providers/index.ts';

const klaviyo = providerOf('klaviyo');
const shopify = providerOf('shopify');
const shopifyOrder = providerOf('shopify_order');
const keap = providerOf('infusionsoft');
const manychat = providerOf('manychat');

describe('the provider list (spec 001 §3, §7 GET /api/merge-tag/providers)', () => {
  it('holds the ten providers of the spec, in its order, Custom with the empty value', () => {
    expect(providerList().map((p) => p.value)).toEqual([
      'wistia',
      'vidalytics',
      'mywebsite',
      'shopify_order',
      'shopify',
      'klaviyo',
      'infusionsoft',
      'manychat',
      'fixyourfunnel',
      '',
    ]);
    expect(providerList().find((p) => p.value === '')?.label).toBe('Custom');
  });

  it('leaves out website, Wistia and Vidalytics when the PDF form is on (spec 001 §4)', () => {
    const withPdf = providerList(true).map((p) => p.value);
    expect(withPdf).not.toContain('mywebsite');
    expect(withPdf).not.toContain('wistia');
    expect(withPdf).not.toContain('vidalytics');
    expect(withPdf).toContain('klaviyo');
  });

  it('reads an unknown or missing provider as Custom', () => {
    expect(providerOf(null).value).toBe('');
    expect(providerOf('mailchimp').value).toBe('');
  });
});

describe('Klaviyo (Django template tags)', () => {
  it('writes a field with its fallback, and a custom property with lookup', () => {
    expect(klaviyo.mergeTag('first_name')).toBe("{{ first_name|default:'' }}");
    expect(klaviyo.mergeTag('first_name', 'Friend')).toBe("{{ first_name|default:'Friend' }}");
    expect(klaviyo.mergeTag(klaviyoProperty('Prop'))).toBe("{{ person|lookup:'Prop'|default:'' }}");
    expect(klaviyoProperty('Address', 'city')).toBe("person|lookup:'Address'|lookup:'city'");
  });

  it('adds the urlencode filter inside a URL, and encodes as Python quote does', () => {
    expect(klaviyo.urlTag('first_name')).toBe("{{ first_name|default:''|urlencode }}");
    expect(klaviyo.substitute('Ana & Zoë+1/2 😀')).toBe(
      'Ana%20%26%20Zo%C3%AB%2B1/2%20%F0%9F%98%80',
    );
  });

  it('reads the documented forms back', () => {
    expect(klaviyo.parseTag("{{ first_name|default:'' }}")).toEqual({ field: 'first_name' });
    expect(klaviyo.parseTag("{{ person|lookup:'Prop' }}")).toEqual({
      field: "person|lookup:'Prop'",
    });
    expect(klaviyo.parseTag("{{ first_name|default:'there'|urlencode }}")).toEqual({
      field: 'first_name',
      fallback: 'there',
    });
    expect(klaviyo.parseTag('{{ first_name|title }}')).toEqual({ field: 'first_name|title' });
    expect(klaviyo.parseTag('Ana')).toBeUndefined();
  });

  it('refuses a fallback with a quote rather than write a broken tag', () => {
    expect(() => klaviyo.mergeTag('first_name', "O'Hara")).toThrow(RangeError);
  });

  it('offers the standard fields offline, and the Shopify storefront adds its tags', () => {
    expect(klaviyo.catalogue().map((c) => c.merge_tag_value)).toEqual([
      "{{ first_name|default:'' }}",
      "{{ last_name|default:'' }}",
      "{{ full_name|default:'' }}",
      "{{ email|default:'' }}",
    ]);
    expect(klaviyo.catalogue('shopify').at(-1)).toEqual({
      merge_tag_name: 'Shopify tags',
      merge_tag_value: "{{ person|lookup:'Shopify Tags'|default:'' }}",
    });
    expect(KLAVIYO_STOREFRONTS.map((s) => s.value)).toContain('shopify');
  });
});

describe('Shopify (Liquid)', () => {
  it('writes the customer field, with a default filter for a fallback', () => {
    expect(shopify.mergeTag('customer.first_name')).toBe('{{ customer.first_name }}');
    expect(shopifyOrder.mergeTag('customer.first_name', 'there')).toBe(
      "{{ customer.first_name | default: 'there' }}",
    );
  });

  it('reads the documented url_param_escape form and writes url_encode in the URL', () => {
    expect(shopifyOrder.parseTag('{{ customer.first_name | url_param_escape }}')).toEqual({
      field: 'customer.first_name',
    });
    expect(shopifyOrder.urlTag('customer.first_name')).toBe(
      '{{ customer.first_name | url_encode }}',
    );
    expect(shopifyOrder.urlTag('customer.first_name', 'there')).toBe(
      "{{ customer.first_name | default: 'there' | url_encode }}",
    );
  });

  it('encodes as url_encode does: & escaped, a space as +, + itself escaped', () => {
    expect(shopify.substitute('Health & Love potions')).toBe('Health+%26+Love+potions');
    expect(shopify.substitute('test@test.com')).toBe('test%40test.com');
    expect(shopify.substitute('C++')).toBe('C%2B%2B');
  });

  it('lists order fields only for order notifications', () => {
    const order = shopifyOrder.catalogue().map((c) => c.merge_tag_value);
    expect(order).toContain('{{ order_name }}');
    expect(shopify.catalogue().map((c) => c.merge_tag_value)).not.toContain('{{ order_name }}');
  });
});

describe('Keap / Infusionsoft (tilde merge fields)', () => {
  it('writes ~Contact.FirstName~ and custom fields with an underscore', () => {
    expect(keap.mergeTag('Contact.FirstName')).toBe('~Contact.FirstName~');
    expect(keap.mergeTag(keapCustomField('Favourite Colour'))).toBe('~Contact._FavouriteColour~');
    expect(keap.urlTag('Contact.FirstName')).toBe('~Contact.FirstName~');
    expect(keap.parseTag(' ~Contact.Email~ ')).toEqual({ field: 'Contact.Email' });
    expect(keap.parseTag('{{ first_name }}')).toBeUndefined();
  });

  it('has no fallback syntax and inserts values as they are', () => {
    expect(keap.hasFallback).toBe(false);
    expect(keap.mergeTag('Contact.FirstName', 'Friend')).toBe('~Contact.FirstName~');
    expect(keap.substitution).toBe('raw');
    expect(keap.connection).toBe('oauth');
  });
});

describe('ManyChat', () => {
  it('writes {{first_name}} and custom user fields {{cuf_<id>}}', () => {
    expect(manychat.mergeTag('first_name')).toBe('{{first_name}}');
    expect(manychat.mergeTag(manychatCustomField(8423))).toBe('{{cuf_8423}}');
    expect(manychat.parseTag('{{ cuf_8423 }}')).toEqual({ field: 'cuf_8423' });
    expect(manychat.urlForm).toBe('manychat');
  });
});

describe('fixyourfunnel and Custom (typed tags)', () => {
  it('keeps a typed tag of a known shape as typed, and reads other text as fixed text', () => {
    for (const value of ['fixyourfunnel', ''] as const) {
      const provider = providerOf(value);
      expect(provider.parseTag('*|FNAME|*')).toEqual({ field: '*|FNAME|*' });
      expect(provider.parseTag('{first_name}')).toEqual({ field: '{first_name}' });
      expect(provider.parseTag('Ana Maria')).toBeUndefined();
      expect(provider.catalogue()).toEqual([]);
    }
    expect(providerOf('fixyourfunnel').urlForm).toBe('txt');
  });
});

describe('web pages and video players (page query parameters)', () => {
  it('name the page parameter a value is read from', () => {
    const web = providerOf('mywebsite');
    expect(web.parseTag('fname')).toEqual({ field: 'fname' });
    expect(web.parseTag('not a name')).toBeUndefined();
    expect(web.substitute('Ana & Zoë')).toBe('Ana%20%26%20Zo%C3%AB');
    expect(providerOf('wistia').catalogue()).toEqual([
      { merge_tag_name: "Viewer's e-mail (wemail)", merge_tag_value: 'wemail' },
    ]);
  });

  it('find the media id in a Wistia embed code and the ids in a Vidalytics one', () => {
    expect(
      wistiaMediaId(
        '<script src="https://fast.wistia.com/embed/medias/abc123def.jsonp" async></script>' +
          '<div class="wistia_embed wistia_async_abc123def videoFoam=true"></div>',
      ),
    ).toBe('abc123def');
    expect(
      wistiaMediaId('<iframe src="https://fast.wistia.net/embed/iframe/xyz987"></iframe>'),
    ).toBe('xyz987');
    expect(wistiaMediaId('<p>nothing</p>')).toBeUndefined();
    expect(
      vidalyticsEmbed(
        "<div id=\"vidalytics_embed_E1\"></div><script>(…)(window, document, 'Vidalytics', 'vidalytics_embed_E1', 'https://quick.vidalytics.com/embeds/A7/E1/');</script>",
      ),
    ).toEqual({ accountId: 'A7', embedId: 'E1' });
  });
});

describe('every provider', () => {
  it.each(PROVIDERS.map((p) => [p.label, p] as const))(
    '%s reads back the tags of its own catalogue',
    (_label, provider) => {
      for (const choice of provider.catalogue()) {
        const parsed = provider.parseTag(choice.merge_tag_value);
        expect(parsed, choice.merge_tag_value).toBeDefined();
        expect(provider.mergeTag(parsed!.field, parsed!.fallback)).toBe(choice.merge_tag_value);
      }
    },
  );
});
