/** The files of a guide's code blocks (```lang [path]), path → content, in the order the guide shows them. */
export function guideFiles(markdown: string, name?: string): Map<string, string>;
/** Reads a guide (docs/guide/*.md) and returns its files. */
export function readGuideFiles(guide: string): Map<string, string>;
/** Writes the files of a guide under `dir`, over what the scaffold put there. */
export function writeGuideFiles(files: Map<string, string>, dir: string): void;
