import { describe, expect, test } from 'vitest';
import { buildEmbedUrl, filterUrlParameter, redactSession, type EmbedUrlOptions, type Surface } from '../src/index';
import { thrown } from './helpers';

const baseUrl = 'https://tenant.example';
const query = (url: string) => new URL(url).searchParams;

describe('buildEmbedUrl: surfaces', () => {
  test.each<[Surface, Partial<EmbedUrlOptions>, string]>([
    ['dashboard', { publicId: 'sales', session: 's1' }, 'https://tenant.example/embed/dashboard/sales?session=s1'],
    ['dashboard', { publicId: 'sales' }, 'https://tenant.example/embed/dashboard/sales'],
    ['chat', { session: 's1' }, 'https://tenant.example/embed/chat?sessionId=s1'],
    ['chat', {}, 'https://tenant.example/embed/chat'],
    ['app', { deploymentId: 42, session: 's1' }, 'https://tenant.example/embed/d/42/app?session=s1'],
    ['app', { deploymentId: '42', session: 's1' }, 'https://tenant.example/embed/d/42/app?session=s1'],
  ])('%s %o', (surface, options, url) => {
    expect(buildEmbedUrl(surface, { baseUrl, ...options })).toBe(url);
  });

  test('the base URL is normalized to its origin (path, case, default port dropped)', () => {
    expect(buildEmbedUrl('chat', { baseUrl: 'https://Tenant.Example:443/ignored/path?x=1' })).toBe('https://tenant.example/embed/chat');
    expect(buildEmbedUrl('chat', { baseUrl: new URL('https://tenant.example:8443') })).toBe('https://tenant.example:8443/embed/chat');
  });

  test.each<[string, Surface, Partial<EmbedUrlOptions>, RegExp]>([
    ['app without session', 'app', { deploymentId: 1 }, /"session" must be signed session id \(the app surface has no private mode\)/],
    ['empty session', 'dashboard', { publicId: 'p', session: '' }, /"session" must be non-empty string when present \(got ""\)/],
    ['blank session', 'chat', { session: '  ' }, /"session" must be non-empty string/],
    ['dashboard without publicId', 'dashboard', {}, /"publicId" must be a public id such as "sales-overview" \(got undefined\)/],
    ['empty publicId', 'dashboard', { publicId: ' ' }, /publicId/],
    ['app without deploymentId', 'app', { session: 's' }, /"deploymentId" must be positive integer \(got undefined\)/],
    ['deploymentId 0', 'app', { deploymentId: 0, session: 's' }, /deploymentId/],
    ['negative deploymentId', 'app', { deploymentId: -3, session: 's' }, /deploymentId/],
    ['fractional deploymentId', 'app', { deploymentId: 1.5, session: 's' }, /deploymentId/],
    ['NaN deploymentId', 'app', { deploymentId: NaN, session: 's' }, /deploymentId/],
    ['unknown surface', 'widget' as Surface, {}, /"surface" must be dashboard\|app\|chat \(got "widget"\)/],
    ['bad base URL', 'chat', { baseUrl: 'http://tenant.example' }, /baseUrl/],
  ])('refuses %s', (_what, surface, options, message) => {
    const error = thrown(() => buildEmbedUrl(surface, { baseUrl, ...options }));
    expect(error.code).toBe('invalid-option');
    expect(error.message).toMatch(message);
  });
});

describe('buildEmbedUrl: boolean launch options', () => {
  // [option, default]: only the value that differs from the default is written, as the exact literal.
  const FLAGS: [keyof EmbedUrlOptions, boolean][] = [
    ['allowExport', false],
    ['showDashboardExportMenu', true],
    ['showDashboardHeader', true],
    ['showDashboardBackButton', true],
    ['showDashboardTitle', true],
    ['showDashboardEditButton', true],
    ['showDashboardDuplicateButton', true],
    ['showWorkbookBackButton', true],
  ];

  test.each(FLAGS)('%s: written only as the exact literal %s negated', (flag, fallback) => {
    const opts = { baseUrl, deploymentId: 1, session: 's' };
    const changed = buildEmbedUrl('app', { ...opts, [flag]: !fallback });
    expect(query(changed).getAll(flag)).toEqual([String(!fallback)]);
    expect(changed).toContain(`&${flag}=${!fallback}`);
    expect(buildEmbedUrl('app', { ...opts, [flag]: fallback })).toBe('https://tenant.example/embed/d/1/app?session=s');
    expect(buildEmbedUrl('app', { ...opts, [flag]: undefined })).toBe('https://tenant.example/embed/d/1/app?session=s');
  });

  test.each(FLAGS.flatMap(([flag]) => ['true', 'false', 1, 0, null, 'TRUE'].map((v) => [flag, JSON.stringify(v), v] as const)))(
    '%s = %s (not a boolean) is refused',
    (flag, _shown, value) => {
      const error = thrown(() => buildEmbedUrl('dashboard', { baseUrl, publicId: 'p', [flag]: value } as unknown as EmbedUrlOptions));
      expect(error.code).toBe('invalid-option');
      expect(error.message).toContain(`"${flag}" must be boolean when present`);
    },
  );

  test('several options together', () => {
    const url = buildEmbedUrl('dashboard', {
      baseUrl,
      publicId: 'sales',
      session: 's1',
      allowExport: true,
      showDashboardExportMenu: false,
      showDashboardHeader: false,
      showDashboardTitle: true,
    });
    expect(url).toBe(
      'https://tenant.example/embed/dashboard/sales?session=s1&allowExport=true&showDashboardExportMenu=false&showDashboardHeader=false',
    );
  });
});

describe('buildEmbedUrl: locale and member options', () => {
  const dash = (o: Partial<EmbedUrlOptions>) => buildEmbedUrl('dashboard', { baseUrl, publicId: 'p', ...o });

  test.each(['es-MX', 'es', 'zh-Hant-TW'])('locale %s', (locale) => {
    expect(query(dash({ locale })).get('locale')).toBe(locale);
    expect(buildEmbedUrl('chat', { baseUrl, locale })).toBe(`https://tenant.example/embed/chat?locale=${locale}`);
  });

  test.each(['', '   '])('locale %j is refused', (locale) => {
    expect(thrown(() => dash({ locale })).message).toContain('"locale" must be non-empty string when present');
  });

  test('filters become f_ parameters with percent-encoded JSON', () => {
    const url = dash({
      filters: {
        'orders.status': { value: 'completed' },
        'orders.created_at': { operator: 'inDateRange', values: ['2024-01-01', '2024-12-31'] },
      },
    });
    expect(url).toBe(
      'https://tenant.example/embed/dashboard/p?f_orders.status=%7B%22value%22%3A%22completed%22%7D' +
        '&f_orders.created_at=%7B%22operator%22%3A%22inDateRange%22%2C%22values%22%3A%5B%222024-01-01%22%2C%222024-12-31%22%5D%7D',
    );
    expect(JSON.parse(query(url).get('f_orders.status')!)).toEqual({ value: 'completed' });
  });

  test('filter values with & = # ? + and unicode survive the round trip', () => {
    const value = { value: 'a&b=c#d?e+f %g ü 🚀' };
    const url = dash({ filters: { 'orders.note': value } });
    expect(url).not.toMatch(/[ #]/);
    expect(JSON.parse(query(url).get('f_orders.note')!)).toEqual(value);
    expect([...query(url).keys()]).toEqual(['f_orders.note']);
  });

  test.each([
    ['not an object', 'completed'],
    ['an array', ['a']],
    ['null', null],
    ['a number', 3],
  ])('a filter that is %s is refused', (_what, value) => {
    const error = thrown(() => dash({ filters: { 'orders.status': value } } as unknown as EmbedUrlOptions));
    expect(error.message).toContain('filters: "orders.status" must be JSON object');
  });

  test('a filter that cannot be serialized (cycle, BigInt) is refused', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(thrown(() => dash({ filters: { 'orders.status': cyclic } } as unknown as EmbedUrlOptions)).code).toBe('invalid-option');
    expect(thrown(() => dash({ filters: { 'orders.status': { value: 1n } } } as unknown as EmbedUrlOptions)).code).toBe('invalid-option');
  });

  test.each(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const)('time grain %s', (grain) => {
    expect(dash({ timeGrains: { 'orders.created_at': grain } })).toBe(
      `https://tenant.example/embed/dashboard/p?tg_orders.created_at=${grain}`,
    );
  });

  test.each(['Month', 'MONTH', 'months', 'decade', '', 1])('time grain %j is refused', (grain) => {
    const error = thrown(() => dash({ timeGrains: { 'orders.created_at': grain } } as unknown as EmbedUrlOptions));
    expect(error.code).toBe('invalid-option');
    expect(error.message).toContain('timeGrains: "orders.created_at" must be second|minute|hour|day|week|month|quarter|year');
  });

  test('field switches become ms_ parameters', () => {
    expect(dash({ fieldSwitches: { 'orders.revenue': 'orders.profit' } })).toBe(
      'https://tenant.example/embed/dashboard/p?ms_orders.revenue=orders.profit',
    );
    expect(query(dash({ fieldSwitches: { 'orders.revenue': 'a&b=c' } })).get('ms_orders.revenue')).toBe('a&b=c');
  });

  test.each(['', '  ', 3, null])('field switch %j is refused', (selected) => {
    const error = thrown(() => dash({ fieldSwitches: { 'orders.revenue': selected } } as unknown as EmbedUrlOptions));
    expect(error.message).toContain('fieldSwitches: "orders.revenue" must be non-empty string');
  });

  test.each([
    'orders',
    'orders.',
    '.status',
    'a.b.c',
    'orders.sta tus',
    'orders.st=atus',
    'orders.st&atus',
    'orders.st#atus',
    'orders.st?atus',
    'orders/x.status',
    '',
  ])('member key %j is refused in filters, timeGrains and fieldSwitches', (key) => {
    for (const option of [{ filters: { [key]: { value: 1 } } }, { timeGrains: { [key]: 'day' } }, { fieldSwitches: { [key]: 'x' } }]) {
      const error = thrown(() => dash(option as unknown as EmbedUrlOptions));
      expect(error.code).toBe('invalid-option');
      expect(error.message).toContain('must be <semantic_view>.<dimension>, e.g. "orders.status"');
    }
  });

  test('parameter order: session, flags, locale, filters, time grains, field switches', () => {
    const url = buildEmbedUrl('app', {
      baseUrl,
      deploymentId: 3,
      session: 's',
      fieldSwitches: { 'a.b': 'c' },
      timeGrains: { 'a.t': 'week' },
      filters: { 'a.f': { value: 1 } },
      locale: 'fr',
      showWorkbookBackButton: false,
    });
    expect([...query(url).keys()]).toEqual(['session', 'showWorkbookBackButton', 'locale', 'f_a.f', 'tg_a.t', 'ms_a.b']);
  });
});

describe('buildEmbedUrl: percent-encoding of path segments and values', () => {
  test.each([
    ['a/b', 'a%2Fb'],
    ['a?b', 'a%3Fb'],
    ['a#b', 'a%23b'],
    ['sales overview', 'sales%20overview'],
    ['ventes-é', 'ventes-%C3%A9'],
    ['📊', '%F0%9F%93%8A'],
  ])('publicId %j → /embed/dashboard/%s', (publicId, segment) => {
    const url = buildEmbedUrl('dashboard', { baseUrl, publicId });
    expect(url).toBe(`https://tenant.example/embed/dashboard/${segment}`);
    expect(new URL(url).origin).toBe('https://tenant.example');
  });

  test('a publicId cannot escape the dashboard path', () => {
    for (const publicId of ['../../api/v1/users', '..%2F..%2Fapi', '?session=evil', '#x']) {
      const url = new URL(buildEmbedUrl('dashboard', { baseUrl, publicId, session: 's' }));
      expect(url.pathname.startsWith('/embed/dashboard/')).toBe(true);
      expect(url.pathname.split('/')).toHaveLength(4);
      expect(url.searchParams.getAll('session')).toEqual(['s']);
    }
  });

  // The URL parser resolves `/embed/dashboard/..` (even as `%2E%2E`) to `/embed/`: refused.
  test.each(['.', '..'])('a dot segment publicId %j is refused', (publicId) => {
    expect(() => buildEmbedUrl('dashboard', { baseUrl, publicId, session: 's' })).toThrow(/publicId/);
  });

  test.each(['.', '..', 'a/b?c', 'dep-1', '0', '-1', '1.5', ' 7', 0, -3, 1.5, Number.NaN])(
    'deploymentId %j is refused (a positive integer)',
    (deploymentId) => {
      expect(() => buildEmbedUrl('app', { baseUrl, deploymentId: deploymentId as number, session: 's' })).toThrow(
        /"deploymentId" must be positive integer/,
      );
    },
  );

  test('session values are encoded and cannot inject parameters', () => {
    const url = buildEmbedUrl('dashboard', { baseUrl, publicId: 'p', session: 'a&allowExport=true#x' });
    expect(query(url).get('session')).toBe('a&allowExport=true#x');
    expect(query(url).get('allowExport')).toBeNull();
    expect(buildEmbedUrl('chat', { baseUrl, session: 'ü +' })).toBe('https://tenant.example/embed/chat?sessionId=%C3%BC%20%2B');
  });

  test('a locale cannot inject parameters', () => {
    const url = buildEmbedUrl('chat', { baseUrl, locale: 'en&allowExport=true' });
    expect([...query(url).keys()]).toEqual(['locale']);
  });
});

describe('filterUrlParameter', () => {
  test('builds f_<view>.<dimension>=<JSON>', () => {
    expect(filterUrlParameter('orders', 'status', { value: 'completed' })).toBe('f_orders.status={"value":"completed"}');
    expect(filterUrlParameter('orders', 'created_at', { operator: 'inDateRange', values: ['2024-01-01', '2024-12-31'] })).toBe(
      'f_orders.created_at={"operator":"inDateRange","values":["2024-01-01","2024-12-31"]}',
    );
  });

  test.each([
    ['', 'status'],
    ['orders', ''],
    ['or.ders', 'status'],
    ['orders', 'sta.tus'],
    ['orders', 'st atus'],
    ['ord=ers', 'status'],
    ['orders', 'st&atus'],
    ['orders', 'st/atus'],
  ])('refuses view %j dimension %j', (view, dimension) => {
    const error = thrown(() => filterUrlParameter(view, dimension, { value: 1 }));
    expect(error.code).toBe('invalid-option');
    expect(error.message).toContain('<semantic_view>.<dimension>');
  });

  test.each([
    ['a string', 'x'],
    ['an array', [1]],
    ['null', null],
  ])('refuses a value that is %s', (_what, value) => {
    expect(thrown(() => filterUrlParameter('orders', 'status', value as never)).message).toContain(
      'filter: "orders.status" must be JSON object',
    );
  });
});

describe('redactSession', () => {
  test.each([
    ['https://t.example/embed/dashboard/p?session=abc123', 'https://t.example/embed/dashboard/p?session=[redacted]'],
    ['https://t.example/embed/chat?sessionId=abc123', 'https://t.example/embed/chat?sessionId=[redacted]'],
    ['https://t.example/embed/d/1/app?session=abc&locale=fr', 'https://t.example/embed/d/1/app?session=[redacted]&locale=fr'],
    ['https://t.example/x?locale=fr&session=abc#top', 'https://t.example/x?locale=fr&session=[redacted]#top'],
    ['mount https://t.example/embed/chat?sessionId=a%20b and more', 'mount https://t.example/embed/chat?sessionId=[redacted] and more'],
    ['two: ?session=a and &session=b', 'two: ?session=[redacted] and &session=[redacted]'],
    ['no session here', 'no session here'],
    ['https://t.example/x?mysession=keep', 'https://t.example/x?mysession=keep'],
  ])('%s', (input, output) => {
    expect(redactSession(input)).toBe(output);
  });

  test('a built URL never shows its session once redacted', () => {
    const url = buildEmbedUrl('dashboard', { baseUrl, publicId: 'p', session: 'SECRET-1', allowExport: true });
    expect(redactSession(url)).not.toContain('SECRET-1');
    expect(redactSession(url)).toContain('allowExport=true');
  });
});
