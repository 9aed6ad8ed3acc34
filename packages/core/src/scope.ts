import type { Controller } from './context';

/*
 * The scope of the current load: what it must undo when it ends (timers, observers, listeners,
 * the session call's abort), and a generation number. Every load, retry and destroy ends the
 * scope and bumps the generation, so the async work of an older attempt, which compares the
 * generation after each `await`, sees it changed and stops.
 */

/** Gives the controller its load scope: `_generation`, `_later` and `_end`. */
export function createScope(c: Pick<Controller, '_generation' | '_later' | '_end'>): void {
  const undos = new Set<() => void>();
  c._generation = 0;
  c._later = (undo) => void undos.add(undo);
  c._end = () => {
    c._generation++;
    undos.forEach((undo) => undo());
    undos.clear();
  };
}
