/* eslint-disable @typescript-eslint/no-unused-vars -- the names are used by the README blocks this prelude goes before */
// Prelude of the README's Next.js blocks: the host app's own auth, which a Server Action reads
// from the request's cookies (`cookies()` from 'next/headers', or an auth library).
declare function currentUser(): Promise<{ id: string; email: string } | null>;
