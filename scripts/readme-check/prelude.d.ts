/*
 * The free names of the READMEs' code blocks, declared once with precise types: every ts, tsx
 * and vue block that scripts/checkReadme.mjs extracts is checked with this file in the program.
 * A block is a module (the checker appends `export {}`), so a block that declares one of these
 * names itself (`const dashboard = embedDashboard(...)`) shadows it. Only names a reader supplies
 * are declared here, never a package's export: a block that forgets an import must fail.
 * This directory is not in the root tsconfig.json, so these globals reach nothing else.
 */
import type { EmbedHandle, EmbedStatus } from '@platform-embed/core';
import type { IncomingMessage, ServerResponse } from 'node:http';

declare global {
  /** The embed of the quick start (`embedDashboard(...)`). */
  const dashboard: EmbedHandle<'dashboard'>;
  /** The element the host renders the embed into. */
  const container: HTMLElement;
  /** The host app's signed-in user. */
  const user: { id: string; email: string; region: string };
  /** The host app's own session lookup on its backend. */
  function getUser(request: Request): Promise<{ id: string; email: string; region: string } | null>;
  /** An Express app (only what the examples call: a route taking a Node handler). */
  const app: { all(path: string, handler: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => unknown): void };
  /** The host app's analytics, metrics, logging and rendering. */
  function track(format: string, surface: string): void;
  function report(durationMs: number | undefined): void;
  function log(type: string, payload: unknown): void;
  function render(status: EmbedStatus): void;
}
