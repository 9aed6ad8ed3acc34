// The package's client boundary: the components and the hook, as named exports. Next.js's webpack
// refuses `export *` in a client boundary ("use named exports instead"), so the core's re-export
// lives in the entry (index.ts), which is not one: a server component that imports a component
// from the package gets a client reference to this module.
export { PlatformApp, PlatformChat, PlatformDashboard } from './PlatformEmbed';
export { usePlatformEmbed } from './usePlatformEmbed';
