import { reflectComponentType, type Signal, type Type } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { describe, expect, test } from 'vitest';
import {
  EMBED_OPTIONS,
  EVENT_SCHEMAS,
  KEPT_STATE,
  LAUNCH_OPTIONS,
  SURFACES,
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  type Surface,
} from '@platform-embed/angular';

// The generated inputs and outputs (scripts/generate.mjs) are the core's tables: the options of
// LAUNCH_OPTIONS, EMBED_OPTIONS and KEPT_STATE that the surface has are its inputs (but
// `container`, `className` and `style`: the element itself, its own class and style), a flag
// exactly when the tables say so; every event of EVENT_SCHEMAS is an output. That every input
// has its option's type is proved by test/types.ts (type-checked by `pnpm typecheck`).

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

  test('the inputs are the options of the tables that the surface has', () => {
    type Spec = { surfaces?: readonly string[] };
    const has = (spec: Spec) => !spec.surfaces || spec.surfaces.includes(surface);
    const expected = [
      ...(Object.entries(LAUNCH_OPTIONS) as [string, Spec][]).filter(([, spec]) => has(spec)),
      ...(Object.entries(EMBED_OPTIONS) as [string, Spec][]).filter(
        ([name, spec]) => has(spec) && !['container', 'className', 'style'].includes(name),
      ),
      // (locale and filters are launch options too: their surfaces are the launch options'.)
      ...Object.entries(KEPT_STATE).filter(([name]) => !(name in LAUNCH_OPTIONS)),
    ].map(([name]) => name);
    expect(mirror.inputs.map((i) => i.templateName).sort()).toEqual([...new Set(expected)].sort());
  });

  test('the own options read as flags are the tables’ flags (debug) and flags or names (keepAlive), the others are not', () => {
    for (const [name, spec] of Object.entries(EMBED_OPTIONS) as [string, { attribute?: string; surfaces?: readonly string[] }][]) {
      if (['container', 'className', 'style'].includes(name) || (spec.surfaces && !spec.surfaces.includes(surface))) continue;
      expect(readsAsFlag(name), `${name} is read as a flag`).toBe(spec.attribute === 'flag' || spec.attribute === 'flagOrName');
    }
    expect(readsAsFlag('debug')).toBe(true);
  });

  test('keepAlive reads a static attribute as the custom elements do: present or "true" is true, "false" false, another value the name', () => {
    const read = (value: unknown) => {
      const fixture = TestBed.createComponent(components[surface]);
      fixture.componentRef.setInput('keepAlive', value);
      return (fixture.componentInstance as unknown as Record<string, Signal<unknown>>)['keepAlive']!();
    };
    expect(['', 'true', 'false', 'sales', true, false, undefined].map(read)).toEqual([true, true, false, 'sales', true, false, undefined]);
  });

  test('one output per event of the catalog, and `event`', () => {
    expect(mirror.outputs.map((o) => o.templateName).sort()).toEqual([...Object.keys(EVENT_SCHEMAS).map(outputName), 'event'].sort());
  });

  test('its selector is not the custom element’s', () => {
    expect(mirror.selector).toBe(`platform-embed-${surface}`);
  });
});
