// @vitest-environment node
import { expect, test } from 'vitest';

test('importing the core without a DOM does not throw or touch window', async () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  const core = await import('../src/index');
  expect(core.listenerCount()).toBe(0);
  // The DOM-free helpers work on the server.
  expect(core.buildEmbedUrl('chat', { baseUrl: 'https://tenant.example', session: 's' })).toBe(
    'https://tenant.example/embed/chat?sessionId=s',
  );
  expect(core.parseMessage({}).ok).toBe(false);
  expect(core.createAction('refresh').type).toBe('platform:action:refresh');
});

test.each(['embedDashboard', 'embedChat', 'embedApp'] as const)('%s without a DOM throws no-dom, synchronously', async (name) => {
  const core = await import('../src/index');
  const options = { container: '#c', baseUrl: 'https://tenant.example', publicId: 'p', deploymentId: 1, session: 's' };
  let error: unknown;
  try {
    core[name](options);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(core.EmbedError);
  expect((error as InstanceType<typeof core.EmbedError>).code).toBe('no-dom');
  expect((error as Error).message).toContain('not during server rendering');
});
