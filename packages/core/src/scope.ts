/*
 * The scope of the current load: what it must undo when it ends (timers, observers, listeners,
 * the session call's abort), and a generation number. Every load, retry and destroy ends the
 * scope and bumps the generation, so the async work of an older attempt, which compares the
 * generation after each `await`, sees it changed and stops.
 */

/** The scope of the current load of one embed. */
export interface Scope {
  /** Registers what to undo when the current load ends. */
  later(undo: () => void): void;
  /** Ends the current load: bumps the generation and undoes what was registered. */
  end(): void;
  /** The current generation. */
  generation(): number;
}

/** Creates the load scope of one embed. */
export function createScope(): Scope {
  let generation = 0;
  const undos = new Set<() => void>();
  return {
    later: (undo) => void undos.add(undo),
    end() {
      generation++;
      undos.forEach((undo) => undo());
      undos.clear();
    },
    generation: () => generation,
  };
}
