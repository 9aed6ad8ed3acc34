/*
 * One watch for every node the SDK waits to see leave the document (a hidden component's
 * container, the slot of a parked frame): a single MutationObserver for the page, observing only
 * the child lists of each watched node's ancestors (no subtree). A node leaves the document only
 * by a change to one of those lists, so the page's DOM work anywhere else makes no records at
 * all, whatever the number of embeds; a node moved elsewhere is followed along its new ancestors.
 */

type Watch = [node: Node, gone: () => void];

const watches = new Set<Watch>();
let observer: MutationObserver | undefined;

// Observes the child list of every ancestor of `node`, across shadow roots.
const follow = (node: Node) => {
  for (let at = node.parentNode; at; at = at.parentNode ?? (at as ShadowRoot).host) observer!.observe(at, { childList: true });
};

// A watched node's ancestors changed: those that left the document are gone, the others followed anew.
const check = () => {
  observer!.disconnect();
  for (const watch of watches)
    if (watch[0].isConnected) follow(watch[0]);
    else {
      watches.delete(watch);
      watch[1]();
    }
};

/**
 * Calls `gone` once `node` (in the document now) leaves the document: after the task that removed
 * it, so a move (removed and inserted again in one task) is not a removal.
 * @returns stops the watch
 */
export function whenGone(node: Node, gone: () => void): () => void {
  const watch: Watch = [node, gone];
  watches.add(watch);
  observer ??= new MutationObserver(check);
  follow(node);
  return () => {
    // (The last watch stopped: nothing is observed any more.)
    if (watches.delete(watch) && !watches.size) observer!.disconnect();
  };
}
