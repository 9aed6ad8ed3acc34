import type { InputSignalWithTransform, OutputEmitterRef } from '@angular/core';
import type {
  AnyEventHandler,
  EventMap,
  EventName,
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  PlatformEmbedInputs,
  Surface,
} from '@platform-embed/angular';

/*
 * Type tests (checked by `pnpm typecheck`, which runs ngc over test/): the components' inputs
 * are exactly the options of `PlatformEmbedInputs<S>`, each with the option's type, and their
 * outputs exactly the events of the catalog with their payloads. A wrong one fails to compile.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- matching any input or output */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type InputsOf<C> = { [K in keyof C]: C[K] extends InputSignalWithTransform<any, any> ? K : never }[keyof C];
type OutputsOf<C> = { [K in keyof C]: C[K] extends OutputEmitterRef<any> ? K : never }[keyof C];
type ReadType<C, K extends keyof C> = C[K] extends InputSignalWithTransform<infer T, any> ? T : never;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type Options<S extends Surface> = { [K in keyof PlatformEmbedInputs<S>]-?: PlatformEmbedInputs<S>[K] };

/** Every input's value is the option's type (`undefined` when it is optional). */
type InputTypes<C, S extends Surface> = {
  [K in InputsOf<C> & keyof Options<S>]: Equal<ReadType<C, K>, PlatformEmbedInputs<S>[K]>;
};

export const inputs: [
  Equal<InputsOf<PlatformDashboard>, keyof PlatformEmbedInputs<'dashboard'>>,
  Equal<InputsOf<PlatformChat>, keyof PlatformEmbedInputs<'chat'>>,
  Equal<InputsOf<PlatformApp>, keyof PlatformEmbedInputs<'app'>>,
] = [true, true, true];

export const inputTypes: [
  Equal<InputTypes<PlatformDashboard, 'dashboard'>[keyof InputTypes<PlatformDashboard, 'dashboard'>], true>,
  Equal<InputTypes<PlatformChat, 'chat'>[keyof InputTypes<PlatformChat, 'chat'>], true>,
  Equal<InputTypes<PlatformApp, 'app'>[keyof InputTypes<PlatformApp, 'app'>], true>,
] = [true, true, true];

export const outputs: Equal<OutputsOf<PlatformDashboard>, Camel<EventName> | 'event'> = true;
export const payloads: [
  Equal<PlatformDashboard['drilldown'], OutputEmitterRef<EventMap['drilldown']>>,
  Equal<PlatformDashboard['dashboardLoaded'], OutputEmitterRef<EventMap['dashboard-loaded']>>,
  Equal<PlatformDashboard['event'], OutputEmitterRef<Parameters<AnyEventHandler>[0]>>,
] = [true, true, true];

// A required option is a required input: `publicId` has no `undefined`; it may be `null` (`| async`
// before its first value: the embed waits for it), as every input may (not set).
export const required: Equal<ReadType<PlatformDashboard, 'publicId'>, string | null> = true;
export const nullable: Equal<ReadType<PlatformDashboard, 'colorScheme'>, 'light' | 'dark' | 'auto' | null | undefined> = true;
