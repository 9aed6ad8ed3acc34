import { describe, expect, test } from 'vitest';
import { normalizeBaseUrl } from '../src/index';
import { thrown } from './helpers';

describe('normalizeBaseUrl', () => {
  test.each([
    ['https://acme.platform.example', 'https://acme.platform.example'],
    ['https://Acme.Platform.EXAMPLE', 'https://acme.platform.example'],
    ['HTTPS://acme.platform.example', 'https://acme.platform.example'],
    ['https://acme.platform.example/', 'https://acme.platform.example'],
    ['https://acme.platform.example:443', 'https://acme.platform.example'],
    ['https://acme.platform.example:443/some/path', 'https://acme.platform.example'],
    ['https://acme.platform.example:8443', 'https://acme.platform.example:8443'],
    ['https://acme.platform.example/embed/dashboard/x?session=abc#frag', 'https://acme.platform.example'],
    ['https://acme.platform.example?x=1', 'https://acme.platform.example'],
    ['https://acme.platform.example#top', 'https://acme.platform.example'],
    ['  https://acme.platform.example  ', 'https://acme.platform.example'],
    ['https://analytics.customer.com', 'https://analytics.customer.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://BÜCHER.example/x', 'https://xn--bcher-kva.example'],
    ['https://例え.テスト', 'https://xn--r8jz45g.xn--zckzah'],
    ['https://192.0.2.10', 'https://192.0.2.10'],
    ['http://localhost', 'http://localhost'],
    ['http://localhost:80', 'http://localhost'],
    ['http://LOCALHOST:5173/app', 'http://localhost:5173'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['https://localhost:3000', 'https://localhost:3000'],
  ])('%s → %s', (input, origin) => {
    expect(normalizeBaseUrl(input)).toBe(origin);
  });

  test('accepts a URL object', () => {
    expect(normalizeBaseUrl(new URL('https://Acme.example:443/x'))).toBe('https://acme.example');
  });

  test.each([
    ['empty', ''],
    ['blank', '   '],
    ['a star', '*'],
    ['no scheme', 'acme.platform.example'],
    ['no scheme with port', 'acme.platform.example:443'],
    ['protocol-relative', '//acme.platform.example'],
    ['a path only', '/embed'],
    ['file:', 'file:///etc/passwd'],
    ['data:', 'data:text/html,<p>hi</p>'],
    ['javascript:', 'javascript:alert(1)'],
    ['blob:', 'blob:https://acme.platform.example/1234'],
    ['about:', 'about:blank'],
    ['ftp:', 'ftp://acme.platform.example'],
    ['ws:', 'ws://acme.platform.example'],
    ['user credentials', 'https://user@acme.platform.example'],
    ['user and password', 'https://user:secret@acme.platform.example'],
    ['password only', 'https://:secret@acme.platform.example'],
    ['plain http on a public host', 'http://acme.platform.example'],
    ['plain http on a host starting with localhost', 'http://localhost.evil.example'],
    ['plain http on a host ending with localhost', 'http://evil-localhost'],
    ['plain http on a subdomain of localhost', 'http://a.localhost'],
    ['plain http on 127.0.0.1 used as a subdomain', 'http://127.0.0.1.evil.example'],
    ['plain http on a LAN address', 'http://192.168.1.10'],
    ['plain http on 0.0.0.0', 'http://0.0.0.0'],
    ['the string "null"', 'null'],
    ['a scheme without host', 'https://'],
  ])('refuses %s (%s)', (_what, input) => {
    const error = thrown(() => normalizeBaseUrl(input));
    expect(error.code).toBe('invalid-option');
    expect(error.message).toMatch(/baseUrl must be your tenant's https:\/\/ address/);
    expect(error.message).toContain('e.g. "https://');
  });

  test('the error quotes what was passed, truncated', () => {
    const error = thrown(() => normalizeBaseUrl(`http://${'a'.repeat(500)}.example`));
    expect(error.message).toContain('got "http://aaa');
    expect(error.message.length).toBeLessThan(300);
  });

  test('a non-string value is refused with the same clear error', () => {
    expect(thrown(() => normalizeBaseUrl(undefined as unknown as string)).code).toBe('invalid-option');
    expect(thrown(() => normalizeBaseUrl(42 as unknown as string)).code).toBe('invalid-option');
  });

  test('refused credentials are not echoed in the error message', () => {
    // security.md rule 10: secrets stay out of thrown errors.
    const error = thrown(() => normalizeBaseUrl('https://user:s3cr3t-pw@acme.platform.example'));
    expect(error.message).not.toContain('s3cr3t-pw');
  });
});
