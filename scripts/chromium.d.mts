/** The Chromium executable: `CHROMIUM_PATH`, else `chromium` (or `chromium-browser`) on the PATH. */
export function chromiumPath(): string;
/** Flags for headless runs as root on a machine without a GPU or an open network. */
export const CHROMIUM_ARGS: string[];
