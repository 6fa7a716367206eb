/**
 * Recorded weather answers (docs/weather.md "Offline mode"): what Open-Meteo answered for a few
 * places, kept so that local runs and tests give the same weather every time without the
 * network. Places by their looked-up key (case folded, spaces made one); forecasts by the
 * location rounded to 0.1° (weather.ts `roundedLocation`). Temperatures in °C, WMO codes.
 */

/** Places the recordings know, by name or postcode. */
export const RECORDED_PLACES: Readonly<Record<string, { lat: number; lon: number; name: string }>> =
  {
    paris: { lat: 48.8534, lon: 2.3488, name: 'Paris' },
    '75001': { lat: 48.8534, lon: 2.3488, name: 'Paris' },
    london: { lat: 51.5085, lon: -0.1257, name: 'London' },
    madrid: { lat: 40.4165, lon: -3.7026, name: 'Madrid' },
    oslo: { lat: 59.9127, lon: 10.7461, name: 'Oslo' },
    'new york': { lat: 40.7143, lon: -74.006, name: 'New York' },
    miami: { lat: 25.7743, lon: -80.1937, name: 'Miami' },
  };

/** Current conditions by rounded location: Paris rain, London overcast, Madrid clear, … */
export const RECORDED_FORECASTS: Readonly<Record<string, { temperatureC: number; code: number }>> =
  {
    '48.9,2.3': { temperatureC: 11.4, code: 61 },
    '51.5,-0.1': { temperatureC: 9.8, code: 3 },
    '40.4,-3.7': { temperatureC: 24.1, code: 0 },
    '59.9,10.7': { temperatureC: -3.2, code: 73 },
    '40.7,-74.0': { temperatureC: 16.5, code: 2 },
    '25.8,-80.2': { temperatureC: 29.3, code: 95 },
  };
