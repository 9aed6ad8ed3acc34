import { reflectComponentType, type Signal, type Type } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { describe, expect, test } from 'vitest';
import {
  EVENT_SCHEMAS,
  LAUNCH_OPTIONS,
  SURFACES,
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  type Surface,
} from '@platform-embed/angular';

// The generated inputs and outputs (scripts/generate.mjs) are the core's tables: every launch
// option of LAUNCH_OPTIONS is an input of its surfaces' components and of no other, a flag
// exactly when the table says `boolean`; every event of EVENT_SCHEMAS is an output. That every
// input is an option of the core's types, and every option an input, with its type, is proved
// by test/types.ts (type-checked by `pnpm typecheck`).

const components: Record<Surface, Type<unknown>> = { dashboard: PlatformDashboard, chat: PlatformChat, app: PlatformApp };
const outputName = (event: string) => event.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe.each(SURFACES)('<platform-embed-%s>', (surface) => {
  const mirror = reflectComponentType(components[surface])!;
  /** Whether the input reads a static attribute as Angular reads a boolean attribute (`""` is true). */
  const readsAsFlag = (name: string) => {
    const fixture = TestBed.createComponent(components[surface]);
    fixture.componentRef.setInput(name, '');
    return (fixture.componentInstance as unknown as Record<string, Signal<unknown>>)[name]!() === true;
  };

  test('every launch option of the surface is a signal input, read as a flag when the table says boolean', () => {
    for (const [name, spec] of Object.entries(LAUNCH_OPTIONS)) {
      const input = mirror.inputs.find((i) => i.propName === name);
      if (!(spec.surfaces as readonly string[]).includes(surface)) {
        expect(input, `${name} is not an option of ${surface}`).toBeUndefined();
        continue;
      }
      expect(input, `${name} is an input of ${surface}`).toMatchObject({ propName: name, templateName: name, isSignal: true });
      expect(readsAsFlag(name), `${name} is read as a flag`).toBe(spec.kind === 'boolean');
    }
  });

  test('the controller’s own options are inputs too (debug a flag), container and the handlers are not', () => {
    const names = mirror.inputs.map((i) => i.templateName);
    for (const own of ['baseUrl', 'session', 'initialSession', 'retry', 'colorScheme', 'theme', 'path', 'loading', 'title', 'debug'])
      expect(names).toContain(own);
    expect(readsAsFlag('debug')).toBe(true);
    expect(readsAsFlag('retry')).toBe(false);
    for (const excluded of ['container', 'className', 'style', 'onDrilldown', 'onEvent']) expect(names).not.toContain(excluded);
  });

  test('one output per event of the catalog, and `event`', () => {
    expect(mirror.outputs.map((o) => o.templateName).sort()).toEqual([...Object.keys(EVENT_SCHEMAS).map(outputName), 'event'].sort());
  });

  test('its selector is not the custom element’s', () => {
    expect(mirror.selector).toBe(`platform-embed-${surface}`);
  });
});
