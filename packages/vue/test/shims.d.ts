// The host component of hostApp.test.ts, for tsc (vue-tsc checks the templates: tsconfig.vue.json).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<{ dark?: boolean }>;
  export default component;
}
