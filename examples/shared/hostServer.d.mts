/** A running demo host. */
export interface RunningHost {
  origin: string;
  /** How many times the session route was asked for a session. */
  sessionsMinted(): number;
  close(): Promise<void>;
}
export interface HostPlatform {
  baseUrl: string;
  apiKey: string;
  deploymentId: number;
  publicId: string;
  mode: 'mock' | 'tenant';
}
export function startHost(options: {
  name: string;
  mounts: Record<string, string>;
  host?: string;
  port?: number;
  platform: HostPlatform;
  user?: { externalId: string; email?: string; displayName?: string };
  /** Writes the cause of each failed session (default `console.error`). */
  log?: (line: string) => void;
}): Promise<RunningHost>;
export const HOSTS: Record<'html' | 'react' | 'vue', (root: string) => Record<string, string>>;
