import type { EmbedOptionsMap, EventHandlerProps, NullableOptions, Surface } from '@platform-embed/core';

/**
 * The inputs of {@link PlatformDashboard}, {@link PlatformChat} and {@link PlatformApp}: the
 * core's embed options of the surface, without `container` (the component's own element),
 * `className` and `style` (the element's own `class` and `style`) and the `on<Event>` handlers
 * (outputs instead). The components' inputs are generated from this type at build time
 * (scripts/generate.mjs), so an option added to the core is an input after the next build.
 */
export type PlatformEmbedInputs<S extends Surface> = NullableOptions<
  Omit<EmbedOptionsMap[S], 'container' | 'className' | 'style' | keyof EventHandlerProps>
>;
