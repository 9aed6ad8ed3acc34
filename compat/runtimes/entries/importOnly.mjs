// Deno with no permission at all (no --allow-env, --allow-net, --allow-read): importing the
// server and answering a request that needs no platform must work, or a Deno host has to grant
// permissions just to import it.
import { createSessionClient, createSessionHandler } from '@platform-embed/server';

const results = [];
async function check(name, run) {
  try {
    await run();
    results.push({ name, ok: true });
  } catch (error) {
    results.push({ name, ok: false, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}

await check('imports with no permission and answers a GET 405', async () => {
  const route = createSessionHandler({
    client: { baseUrl: 'https://acme.platform.example', apiKey: 'k-0123456789abcdef' },
    resolveUser: () => null,
  });
  const response = await route(new Request('https://app.test/api/embed-session'));
  if (response.status !== 405) throw new Error(`answered ${response.status}`);
});

await check('mints through a fetch given in the options, with no permission', async () => {
  const client = createSessionClient({
    baseUrl: 'https://acme.platform.example',
    apiKey: 'k-0123456789abcdef',
    fetch: async () => Response.json({ sessionId: 'from-the-double' }),
  });
  const { sessionId } = await client.generateSession({ deploymentId: 1, externalId: 'u' });
  if (sessionId !== 'from-the-double') throw new Error(`sessionId ${sessionId}`);
});

console.log(JSON.stringify(results));
