import { describe, expect, test } from 'vitest';
import { embedKey } from '../src/index';

describe('embedKey: what is embedded, compared by value', () => {
  const base = {
    surface: 'dashboard',
    baseUrl: 'https://t.example',
    publicId: 'p',
    allowExport: true,
    filters: { 'o.s': { value: 'a', op: 'eq' } },
  };

  test('key order at any depth does not matter', () => {
    expect(embedKey(base)).toBe(
      embedKey({
        filters: { 'o.s': { op: 'eq', value: 'a' } },
        allowExport: true,
        publicId: 'p',
        baseUrl: 'https://t.example',
        surface: 'dashboard',
      }),
    );
  });

  test('handlers, a session function, readyTimeout and debug are not part of it', () => {
    expect(embedKey({ ...base, onReady() {}, session: async () => 's1', readyTimeout: 5, debug: true })).toBe(
      embedKey({ ...base, onReady: () => 1, session: async () => 's2' }),
    );
  });

  test.each([
    ['publicId', { publicId: 'q' }],
    ['a launch option', { allowExport: false }],
    ['a filter value', { filters: { 'o.s': { value: 'b', op: 'eq' } } }],
    ['the base URL', { baseUrl: 'https://u.example' }],
    ['the surface', { surface: 'chat' }],
    ['a session id string', { session: 'abc' }],
    ['an iframe attribute', { title: 'Sales' }],
  ])('a change of %s changes it', (_, change) => {
    expect(embedKey({ ...base, ...change })).not.toBe(embedKey(base));
  });

  test('a session string and a session function differ', () => {
    expect(embedKey({ ...base, session: 'x' })).not.toBe(embedKey({ ...base, session: () => 'x' }));
  });
});
