import { EmbedError } from '../src/index';

/** The tenant origin every controller test trusts. */
export const BASE = 'https://tenant.example';

/** A valid `ready` payload of a signed dashboard. */
export const READY = { embedTenant: 'acme', deploymentId: 7, mode: 'signed', surface: 'dashboard' } as const;

/** A raw event envelope as the embed would post it; `extra` overrides envelope fields. */
export function envelope(name: string, payload: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'platform-embed',
    direction: 'event',
    type: `platform:event:${name}`,
    payload,
    timestamp: 1700000000000,
    surface: 'dashboard',
    ...extra,
  };
}

/** Runs `fn` and returns what it threw; fails the test when it does not throw. */
export function thrown(fn: () => unknown): EmbedError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof EmbedError)) throw new Error(`expected an EmbedError, got ${String(e)}`, { cause: e });
    return e;
  }
  throw new Error('expected the call to throw');
}

/** Lets pending promise callbacks run (the controller yields a few microtasks before it mounts). */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
