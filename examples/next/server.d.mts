/** The Next.js host, started with `next start`. */
export interface RunningNextHost {
  origin: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  close(): Promise<void>;
}
/** Whether `.next` holds a production build newer than the app and the packages it bundles. */
export function isBuilt(): boolean;
/** Runs `next build` unless the build is up to date; throws with its output when it fails. */
export function buildIfStale(): void;
/** Starts `next start` on `port` (0: a free one) and resolves once it answers. */
export function startNextHost(options: {
  platform: { baseUrl: string; apiKey: string; deploymentId: number; publicId: string };
  port?: number;
  host?: string;
  timeoutMs?: number;
}): Promise<RunningNextHost>;
