// A Cloudflare Worker (workerd): the checks bundled with @platform-embed/server; the targets come
// in the request's `targets` query parameter, the results go back as JSON.
import { runChecks } from '../checks.mjs';

export default {
  /** @param {Request} request */
  async fetch(request) {
    const targets = JSON.parse(new URL(request.url).searchParams.get('targets') ?? '{}');
    return Response.json(await runChecks(targets));
  },
};
